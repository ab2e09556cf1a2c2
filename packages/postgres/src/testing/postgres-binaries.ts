import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian's `postgresql` package puts each major version's programs: `<root>/<version>/bin`. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The directory holding `initdb` and `postgres`: the first `PATH` directory with both (Homebrew,
 * a distribution that links them), else the newest `/usr/lib/postgresql/<version>/bin` (Debian,
 * which keeps them off `PATH`). `undefined` when PostgreSQL is not installed.
 */
export function findPostgresBin(path = process.env.PATH ?? '', root = DEBIAN_ROOT): string | undefined {
  const has = (directory: string) => executable(join(directory, 'initdb')) && executable(join(directory, 'postgres'));
  for (const directory of path.split(delimiter)) if (directory !== '' && has(directory)) return directory;
  let versions: string[];
  try {
    versions = readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name));
  } catch {
    return undefined;
  }
  versions.sort((left, right) => Number.parseFloat(right) - Number.parseFloat(left));
  return versions.map((version) => join(root, version, 'bin')).find(has);
}
