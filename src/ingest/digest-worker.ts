/** Entry of the transcript digest thread (digest-thread.ts). */
import { parentPort } from 'node:worker_threads';
import { serveThreadRpc } from '../thread-rpc.js';
import { digestTranscript, type Turn } from './transcript.js';

serveThreadRpc<Turn[]>(parentPort!, digestTranscript);
