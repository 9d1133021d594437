/** Identity: the state of users and credentials, and the decisions on their streams. */
export * from './state';
export * from './user';
export * from './api-key';
export * from './session';
