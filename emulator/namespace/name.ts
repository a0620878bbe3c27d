// turbopuffer's rule for namespace names, checked wherever a name arrives: a request's path, a copy's source.
import { badRequest } from '../api-error';

/** turbopuffer's documented name rule: `[A-Za-z0-9-_.]{1,128}`. */
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** True when `name` passes the character rule (the data directory's own check on what it finds). */
export function isNamespaceName(name: string): boolean {
  return NAME.test(name);
}

/** `label` says where the name came from, so that the 400 names the field (`copy_from_namespace.source_namespace`). */
export function checkNamespaceName(name: string, label = 'namespace name'): void {
  if (!isNamespaceName(name))
    throw badRequest(
      `${label} ${JSON.stringify(name)}: use 1 to 128 characters from A-Z, a-z, 0-9, '-', '_' and '.'`,
    );
  // They pass the character rule, but every HTTP client resolves them as path steps before sending the URL.
  if (name === '.' || name === '..')
    throw badRequest(
      `${label} ${JSON.stringify(name)}: "." and ".." cannot name a namespace (URLs treat them as path steps)`,
    );
}
