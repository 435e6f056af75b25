/** @callscore/client: typed client for the Callscore API v1. (Being written.) */
export const CLIENT_VERSION = '0.1.0';
