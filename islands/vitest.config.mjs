// The tests format the messages exactly as the build ships them (./messages.mjs), and start
// with the English catalogues loaded (tests/setup.ts), as an English page's islands have them.
import { defineConfig } from "vitest/config";
import { viteMessages } from "./messages.mjs";

export default defineConfig({
  plugins: [viteMessages()],
  test: { setupFiles: ["./tests/setup.ts"] },
});
