// Removes the compiled output before a build so files deleted from src/ never linger in lib/.
import { rmSync } from 'node:fs';
rmSync(new URL('../lib', import.meta.url), { recursive: true, force: true });
