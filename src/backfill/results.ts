/** The results file: one JSON line per input call, in input order, rewritten whole at the end of every run. */
import fs from 'node:fs';

export interface ResultError {
  /** The API's error code, or a local one: invalid_json, invalid_manifest, transcript_file_not_found,
   * transcript_* (importer), network_error, timeout, not_sent, interrupted. */
  code: string;
  message: string;
  fields: { field: string; message: string }[];
  request_id: string | null;
}

export interface ResultLine {
  /** 1-based line number in the input file (or manifest.jsonl). */
  line: number;
  external_id: string | null;
  /** The call id; null when the call was not created or found. */
  id: string | null;
  /** The call's status as the API returned it; `valid` in a dry run; null when the line failed. */
  status: string | null;
  /** true when this backfill created the call (this run or an earlier one), false when it already existed. */
  created: boolean;
  error: ResultError | null;
}

export function failedLine(line: number, externalId: string | null, error: ResultError): ResultLine {
  return { line, external_id: externalId, id: null, status: null, created: false, error };
}

export function localError(code: string, message: string, fields: ResultError['fields'] = []): ResultError {
  return { code, message, fields, request_id: null };
}

/** Writes beside the target and renames, so a reader never sees half a file. */
export function writeResultsFile(path: string, lines: readonly ResultLine[]): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    let chunk = '';
    for (const line of lines) {
      chunk += `${JSON.stringify(line)}\n`;
      if (chunk.length > 1 << 16) {
        fs.writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, path);
}
