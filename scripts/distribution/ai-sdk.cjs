// @keel/ai-sdk as CommonJS: require() loads it and its error class, and refuses a model of another spec.
const { fromAISDK, ProviderError } = require('@keel/ai-sdk');

if (typeof fromAISDK !== 'function' || typeof ProviderError.isInstance !== 'function') {
  console.error('ai-sdk cjs: exports missing');
  process.exit(1);
}
try {
  fromAISDK({ specificationVersion: 'v2', doGenerate() {} });
  console.error('ai-sdk cjs: a spec v2 model was taken');
  process.exit(1);
} catch (error) {
  if (!/spec v2/.test(error.message)) throw error;
}
console.log('ai-sdk cjs: ok');
