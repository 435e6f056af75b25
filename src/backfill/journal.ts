/**
 * The journal (`<out>.journal`): one JSON line appended, synchronously, for each call the API accepted
 * (created or already there). A rerun skips every input line whose request is in the journal for the same
 * API base and API key (another key may be another account, which has never seen the call), and reports it from
 * the journal. Failed lines are not journaled: a rerun tries them again (after
 * the workspace or the file was fixed). The server's idempotency on (provider, external_id) is the second guard.
 *
 * Entries are keyed by a hash of the exact request body, not the line number, so inserting or reordering lines
 * between runs cannot skip the wrong call, and an edited line is sent again. A torn last line (a crash
 * mid-write) is ignored on load.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export interface JournalEntry {
  key: string;
  base_url: string;
  /** A digest of the API key the call was sent with, never the key itself. */
  api_key: string;
  line: number;
  external_id: string | null;
  id: string;
  status: string;
  created: boolean;
  at: string;
}

export function requestKey(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** Names an API key in the journal without storing it: a prefix of its SHA-256 digest. */
function apiKeyTag(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

export class Journal {
  readonly path: string;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #entries = new Map<string, JournalEntry>();
  #fd: number | null = null;

  constructor(path: string, baseUrl: string, apiKey: string) {
    this.path = path;
    this.#baseUrl = baseUrl;
    this.#apiKey = apiKeyTag(apiKey);
    let text = '';
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      try {
        const entry = JSON.parse(raw) as JournalEntry;
        if (
          entry &&
          typeof entry.key === 'string' &&
          entry.base_url === baseUrl &&
          entry.api_key === this.#apiKey &&
          typeof entry.id === 'string'
        ) {
          this.#entries.set(entry.key, entry);
        }
      } catch {
        // A torn line from an interrupted write: that call is simply sent again (idempotent).
      }
    }
  }

  /** Calls recorded for this API base and key by earlier runs. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The entry an earlier run recorded for this request. Entries recorded by this run are not looked up: a line
   * repeated within one file is sent again and reported as the API answers it (already there).
   */
  get(key: string): JournalEntry | undefined {
    return this.#entries.get(key);
  }

  /** Appends and writes through at once: nothing is buffered, so an interruption loses nothing recorded. */
  record(entry: Omit<JournalEntry, 'base_url' | 'api_key' | 'at'>): void {
    const full: JournalEntry = {
      ...entry,
      base_url: this.#baseUrl,
      api_key: this.#apiKey,
      at: new Date().toISOString(),
    };
    this.#fd ??= fs.openSync(this.path, 'a');
    fs.writeSync(this.#fd, `${JSON.stringify(full)}\n`);
  }

  close(): void {
    if (this.#fd === null) return;
    fs.fsyncSync(this.#fd);
    fs.closeSync(this.#fd);
    this.#fd = null;
  }
}
