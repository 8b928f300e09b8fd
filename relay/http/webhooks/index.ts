/** webhooks/: the service's deliveries (POST /v1/webhooks). Others may use createWebhookReceiver and its type. */
export { createWebhookReceiver, type WebhookReceiver, type WebhookReceiverDeps } from './receiver.js';
