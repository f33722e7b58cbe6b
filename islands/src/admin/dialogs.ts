// The admin dashboard's dialogs and its forms (zod with them), one chunk loaded on demand (see
// ./lazy).
export { CreateUserDialog } from "./CreateUserDialog";
export { ConfirmDialog } from "./dialog";
export { PhoneBookingDialog } from "./PhoneBookingDialog";
export { AssignDialog } from "./AssignDialog";
export { ExportPanel } from "./ExportPanel";
export { ConfirmTransferDialog } from "./ConfirmTransferDialog";
