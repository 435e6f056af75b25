/**
 * Step 12's look at the store: a recording row still `pending` may have been uploaded without the API seeing it
 * (with RECORDINGS_STORE=s3 the client PUTs straight to the bucket). The object must exist and have exactly the
 * declared size_bytes; then the row becomes `uploaded`. An object of another size is refused like the disk store
 * refuses such a PUT: it is deleted, the row stays pending, and the call gets 422 `recording_not_found`. A store
 * that does not answer is 503 `service_unavailable` (docs/decisions.md section 23).
 */
import { AppError } from '../errors.js';
import type { RecordingStore } from '../recordings/store.js';
import type { Store } from '../store/db.js';
import { markRecordingUploaded } from '../store/recordings.repo.js';
import type { Recording } from '../store/schema.js';

export async function confirmRecordingUpload(
  store: Store,
  recordings: RecordingStore,
  recording: Recording,
): Promise<Recording> {
  if (recording.status !== 'pending') return recording;
  let stat: { sizeBytes: number } | null;
  try {
    stat = await recordings.stat(recording.storage_key);
  } catch (error) {
    // Unreachable store, throttling, a permission error: nothing the caller did; the cause goes to the log.
    throw Object.assign(
      new AppError('service_unavailable', 'The recording store did not answer; retry shortly.', {
        retryAfter: 5,
      }),
      { cause: error },
    );
  }
  if (!stat) return recording;
  if (stat.sizeBytes !== Number(recording.size_bytes)) {
    await recordings.remove(recording.storage_key);
    const message =
      `The uploaded file had ${stat.sizeBytes} bytes, not the ${recording.size_bytes} declared in size_bytes, ` +
      'so it was discarded; upload exactly size_bytes bytes to upload_url (or request a new upload) and send the call again.';
    throw new AppError('recording_not_found', message, { fields: [{ field: 'recording_id', message }] });
  }
  const uploadedAt = new Date().toISOString();
  await markRecordingUploaded(store.db, recording.id, uploadedAt);
  return { ...recording, status: 'uploaded', uploaded_at: uploadedAt };
}
