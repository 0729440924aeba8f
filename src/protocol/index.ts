// The protocol between the extension host and the session webview, as both sides import it.
export * from './as-of';
export * from './crash';
export * from './detail';
export * from './errors';
export * from './handlers';
export * from './lineage';
export * from './messages';
export * from './notifications';
export * from './overview';
export * from './pending';
export * from './requests';
export * from './rows';
export * from './search';
export * from './summary';
export * from './time';
export * from './webview-strings';
