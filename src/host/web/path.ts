// `node:path` in the browser extension host: the posix helpers the host uses on URI paths.
function basename(p: string, ext?: string): string {
  const base = p.replace(/\/+$/, '').split('/').pop() ?? '';
  return ext && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base;
}

function dirname(p: string): string {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i);
}

function extname(p: string): string {
  const base = basename(p);
  const i = base.lastIndexOf('.');
  return i <= 0 ? '' : base.slice(i);
}

export const posix = { basename, dirname, extname, sep: '/' };
export { basename, dirname, extname };
export const sep = '/';
