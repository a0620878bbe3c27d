// The smallest valid k6 script: keeps the bundle pipeline honest (one GET against a loopback target).
import { check } from 'k6';
import http from 'k6/http';
import { formatBytes } from '../core/sizes';

export const options = {
  vus: 1,
  iterations: 1,
};

export default function (): void {
  const base = __ENV.TARGET_URL || 'http://127.0.0.1:8787';
  const res = http.get(`${base}/`);
  check(res, { 'got a response': (r) => r.status !== 0 });
  console.log(`hello: ${formatBytes(res.body ? String(res.body).length : 0)} received`);
}
