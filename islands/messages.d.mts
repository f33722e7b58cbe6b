// Types of ./messages.mjs (the build's message compiler), for the tests.
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";

export function compileMessage(message: string, where?: string): string | MessageFormatElement[];
export function compileCatalogue(json: string, file?: string): string;
export function esbuildMessages(): unknown;
export function viteMessages(): unknown;
