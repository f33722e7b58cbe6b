// Every test starts with the islands speaking English, every catalogue loaded, as on an
// English page; a test of Arabic loads Arabic itself (and this puts English back after it).
import { beforeEach } from "vitest";
import { NAMESPACES, loadMessages } from "../src/lib/i18n";

beforeEach(async () => {
  await loadMessages(NAMESPACES, "en");
});
