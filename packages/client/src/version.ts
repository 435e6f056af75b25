/** Kept in step with package.json's version (sent in User-Agent). */
export const CLIENT_VERSION = '0.1.0';
