import { packageBuild } from '../../scripts/tsup-config';

export default packageBuild(['src/index.ts']);
