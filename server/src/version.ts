/** The version of this build: the server's, its CLI's and its probe's. */
export const VERSION = '0.1.0';
