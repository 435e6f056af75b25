/**
 * Generates packages/client/src/generated/openapi.ts, the TypeScript types of the server's OpenAPI 3.1
 * document, with openapi-typescript. Run it after any change to the v1 schemas:
 *
 *   npm run client:types
 *
 * packages/client/test/generated-types.test.ts regenerates the text in memory and fails when the committed
 * file differs, so a schema change without a regeneration does not pass CI.
 *
 * The document comes from `printOpenApi(loadConfig({}))`: built from the routes without a database, and
 * with the default configuration so that no environment variable can change the output.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import * as prettier from 'prettier';
import { loadConfig } from '../src/config.js';
import { printOpenApi } from '../src/http/openapi-document.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the generated types are committed. */
export const GENERATED_TYPES_PATH = path.join(ROOT, 'packages/client/src/generated/openapi.ts');

export const GENERATED_HEADER = `/**
 * Generated from the Callscore OpenAPI 3.1 document by openapi-typescript. Do not edit.
 * Run \`npm run client:types\` (scripts/generate-client-types.ts) after changing the server's schemas.
 */
`;

/** The text of packages/client/src/generated/openapi.ts for the current server schemas, formatted by Prettier. */
export async function generateClientTypes(): Promise<string> {
  const document = (await printOpenApi(loadConfig({}))) as OpenAPI3;
  const ast = await openapiTS(document);
  const source = `${GENERATED_HEADER}\n${astToString(ast)}`;
  // Formatted with the repository's Prettier settings, so `prettier --check .` accepts the committed file.
  const options = (await prettier.resolveConfig(GENERATED_TYPES_PATH)) ?? {};
  return prettier.format(source, { ...options, filepath: GENERATED_TYPES_PATH });
}

async function main(): Promise<void> {
  const text = await generateClientTypes();
  await mkdir(path.dirname(GENERATED_TYPES_PATH), { recursive: true });
  await writeFile(GENERATED_TYPES_PATH, text);
  console.log(`Wrote ${path.relative(process.cwd(), GENERATED_TYPES_PATH)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
