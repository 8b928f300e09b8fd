/** admin/: the operator's admin API on its own listener. Others may use startAdminListener and its types. */
export { startAdminListener, type AdminListener, type AdminListenerOptions } from './listener.js';
