/**
 * Writes the language detector's table (src/detection/lean-table.ts) from the installed
 * eld: its medium n-gram table, imported as the module eld ships, cut to the service's
 * languages and packed. Run by `npm run build`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ELD_SUBSET } from '../src/detection/detect-language.js';
import { LEAN_TABLE_FILE, leanTableOf } from '../src/detection/lean-table.js';
import { eldVersion, importEldTable } from '../src/library-patches/eld.js';

const TABLE = 'medium';
const table = await importEldTable(TABLE);
const file = leanTableOf({ version: await eldVersion(), table: TABLE, type: table.type }, table as Parameters<typeof leanTableOf>[1], ELD_SUBSET);
mkdirSync(dirname(LEAN_TABLE_FILE), { recursive: true });
writeFileSync(LEAN_TABLE_FILE, JSON.stringify(file));
