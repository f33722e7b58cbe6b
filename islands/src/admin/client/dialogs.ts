// The client page's dialogs, one chunk loaded on demand (see ./lazy).
export { ConfirmDialog } from "../dialog";
export { ExtendLotDialog } from "./ExtendLotDialog";
export { RefundDialog } from "./RefundDialog";
