// Builds build/ and dist/ before the suite so integration tests run the same bundles users run.
import { buildAll } from '../scripts/build';

export default async function setup(): Promise<void> {
  await buildAll();
}
