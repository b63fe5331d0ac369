/** The API version answered by GET /api/app/version. */
export const API_VERSION = '0.1.0';
