import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule that keeps server-only code out of what a browser loads
 * (eslint.config.js): planted imports in browser files fail it, the same
 * import in a page body rendered at build time does not.
 */

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('browser files never import *.server.ts', () => {
  it('fails an island that imports a *.server.ts module', async () => {
    const code =
      "import { createLeadService } from '../../leads/lead-service.server.ts';\n" +
      'export const planted = createLeadService;\n';
    expect(await restrictedImports('app/components/forms/Planted.tsx', code)).toHaveLength(1);
  });

  it('fails a browser module that imports from server/', async () => {
    const code =
      "import { parseEnv } from '../../server/env.server.ts';\nexport const x = parseEnv;\n";
    expect(await restrictedImports('app/browser/planted.ts', code)).toHaveLength(1);
    expect(await restrictedImports('app/leads/intake/schema.ts', code)).toHaveLength(1);
  });

  it("fails an .astro file's script that imports a *.server.ts module", async () => {
    const code =
      '---\n---\n<p>x</p>\n<script>\n' +
      "  import { createLeadService } from '../leads/lead-service.server.ts';\n" +
      '  console.log(createLeadService);\n</script>\n';
    expect(await restrictedImports('app/pages/planted.astro', code)).toHaveLength(1);
  });

  it('lets a page body rendered at build time read server-side content', async () => {
    const code =
      "import { blogListData } from '../../blog/articles.server.ts';\n" +
      'export const planted = blogListData;\n';
    expect(await restrictedImports('app/components/pages/Planted.tsx', code)).toEqual([]);
  });
});

describe('production code never imports test support', () => {
  it('fails a server module that imports from app/leads/testing', async () => {
    const code =
      "import { tempDataDir } from '../leads/testing/test-support.server.ts';\n" +
      'export const planted = tempDataDir;\n';
    const [result] = await eslint.lintText(code, {
      filePath: path.join(root, 'app/owner/planted.server.ts'),
    });
    const messages = (result?.messages ?? []).map((message) => message.message);
    expect(messages.some((message) => message.endsWith('test support is for tests only'))).toBe(
      true,
    );
  });

  it("fails a server module that imports a domain's contract suite, not the suites themselves", async () => {
    const code =
      "import { makeLead } from '../leads/leads.contract.ts';\n" +
      'export const planted = makeLead;\n';
    const messagesIn = async (file: string) => {
      const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
      return (result?.messages ?? []).map((message) => message.message);
    };
    expect(
      (await messagesIn('app/db/owners/planted.server.ts')).some((message) =>
        message.endsWith('test support is for tests only'),
      ),
    ).toBe(true);
    expect(await messagesIn('app/db/owners/planted.contract.ts')).toEqual([]);
  });
});
