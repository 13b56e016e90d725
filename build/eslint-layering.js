// The layering lint's rule (style guide pattern 1; issue 13 "lint with no holes"): an import is checked by where it
// lands, not by how its specifier is spelled. A relative specifier is resolved against the importing file, so
// `../../../../sandbox/x.ts` from a deep renderer file is caught at any depth, where a glob list stops at the depth it
// was written for. Bare specifiers are checked by module name: Node's built-in modules, and named modules such as
// `electron` (by exact name, so a folder called electron/ is a `folders` entry, not a module).
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const builtins = new Set(builtinModules);

/** The project-relative folder path of an absolute path ('renderer/src/x.ts'), or null outside the project. */
function projectPath(path) {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

const inFolder = (path, folder) => path === folder || path.startsWith(`${folder}/`);

/** @type {import('eslint').Rule.RuleModule} */
const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuse imports that cross a layer boundary (resolved against the importing file).' },
    schema: [
      {
        type: 'object',
        properties: {
          folders: { type: 'array', items: { type: 'string' } },
          only: { type: 'array', items: { type: 'string' } },
          modules: { type: 'array', items: { type: 'string' } },
          builtins: { type: 'boolean' },
          message: { type: 'string' },
        },
        required: ['message'],
        additionalProperties: false,
      },
    ],
    messages: { refused: '{{specifier}} is not allowed here: {{message}}' },
  },
  create(context) {
    const { folders = [], only, modules = [], builtins: noBuiltins = false, message } = context.options[0];
    const from = dirname(context.filename);
    const refused = (specifier) => {
      if (specifier.startsWith('.') || isAbsolute(specifier)) {
        const target = projectPath(resolve(from, specifier));
        if (target === null) return false;
        if (only && !only.some((folder) => inFolder(target, folder))) return true;
        return folders.some((folder) => inFolder(target, folder));
      }
      if (specifier.startsWith('node:')) return noBuiltins;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
      return modules.includes(name) || (noBuiltins && builtins.has(name));
    };
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (refused(source.value)) context.report({ node: source, messageId: 'refused', data: { specifier: source.value, message } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `import('x').T` in a type position.
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default { meta: { name: 'layering' }, rules: { imports: importsRule } };
