/** The printing domain's front door (what other folders may use): receipts and reports to paper: ESC/POS, network and system printers, the one print path, the receipt settings' check. */
export { printDocuments } from './print-documents.js';
export type { PrintDeps } from './print-documents.js';
export { PrintService } from './print-service.js';
export type { SystemPrinter } from './print-service.js';
export { validateReceiptSettings } from './receipt-settings-validation.js';
