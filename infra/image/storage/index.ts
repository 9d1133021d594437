/** The image storage port and its two adapters. */
export * from './port';
export { createLocalImageStorage } from './local';
export { createS3ImageStorage, ensureS3Bucket, S3Error } from './s3';
export type { S3Settings } from './s3';
