// How bench starts Debian's headless Chromium (the report's screenshots and browser test, the runner's k6/browser):
// the package's binary, never a downloaded browser, with the flags that work as root in a container and keep it
// from calling home (this machine's network is closed: background fetches only fail, many at a time).

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
