import { defaultScenarios, generateBulkDomains, indexDomains } from '../tests/mailworld/index';
const { emails, truth } = indexDomains([...defaultScenarios, ...generateBulkDomains({ addresses: 3000 })]);
const fs = await import('node:fs');
fs.writeFileSync('/tmp/f15/emails.txt', emails.join('\n') + '\n');
fs.writeFileSync('/tmp/f15/truth.json', JSON.stringify(Object.fromEntries([...truth].map(([k, v]) => [k, v]))));
console.log(emails.length);
