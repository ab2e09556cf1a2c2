import { packageBuild } from '../../scripts/tsup-config';

export default packageBuild(['src/index.ts', 'src/anthropic/index.ts', 'src/openai/index.ts']);
