import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** where the last build's report is written (outside `dist`, which the server serves) */
export const BUNDLE_REPORT = resolve(import.meta.dirname, '.build-report/bundle.json');

export type TBundleReport = {
  chunks: {
    file: string;
    entry: boolean;
    imports: string[];
    dynamicImports: string[];
    /** the modules in this chunk, biggest first: [path relative to the repository, bytes before minifying] */
    modules: [string, number][];
  }[];
};

/**
 * Writes which modules went into which chunk of the build, so the inbox's JavaScript budget test
 * (e2e/specs/inbox-budget.spec.ts) can name the biggest modules when the budget is exceeded and check that the
 * charts, the flow editor, the calendar and the spreadsheet code never load on the inbox.
 */
export const bundleReport = (): Plugin => {
  const repo = resolve(import.meta.dirname, '../..');
  const name = (id: string) => {
    const inPackage = id.lastIndexOf('node_modules/');
    return inPackage >= 0 ? id.slice(inPackage) : relative(repo, id);
  };

  return {
    name: 'zelo-bundle-report',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const report: TBundleReport = { chunks: [] };
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        report.chunks.push({
          file: item.fileName,
          entry: item.isEntry,
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          modules: Object.entries(item.modules)
            .map(([id, info]): [string, number] => [name(id), info.renderedLength])
            .sort((a, b) => b[1] - a[1]),
        });
      }
      await mkdir(dirname(BUNDLE_REPORT), { recursive: true });
      await writeFile(BUNDLE_REPORT, JSON.stringify(report));
    },
  };
};
