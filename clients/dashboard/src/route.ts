import { useEffect, useState } from 'react';

/** The hash route (`#/payments/<id>` → ['payments', '<id>']): the server serves one page for every route. */
export function useRoute(): string[] {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export const go = (...parts: string[]): void => {
  window.location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
};

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;
