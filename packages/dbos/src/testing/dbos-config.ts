import { DBOS } from '@dbos-inc/dbos-sdk';

/** Configures DBOS for a test process on the test server at `url`: no admin server, quiet logs, one application version in every process. */
export function configureDbos(url: string, name: string): void {
  DBOS.setConfig({ name, systemDatabaseUrl: url, runAdminServer: false, logLevel: 'error', applicationVersion: 'keel-dbos-tests' });
}
