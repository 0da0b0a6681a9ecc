/**
 * What the published declarations promise, read with the TypeScript checker from a consumer
 * file's imports of the package's entries (`'engram'`, `'engram/mem0'`): the exported names, any engram type a public declaration
 * names without exporting it (a user cannot write that type down), explicit `any`s, and the
 * properties of MemoryOptions (where a test hook once leaked).
 */
import ts from 'typescript';

export interface PublicSurface {
  /** The main entry's export names. */
  exports: string[];
  /** Each entry's export names, by specifier. */
  entries: Record<string, string[]>;
  /** `Name (in entry Export)` for each unexported engram type a public declaration refers to. */
  unexported: string[];
  /** `entry Export` for each public declaration that spells out `any`. */
  anys: string[];
  memoryOptions: string[];
}

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  noEmit: true,
};

function resolved(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** The exports of the module `specifier` as `file` imports it. */
function exportsOf(checker: ts.TypeChecker, file: ts.SourceFile, specifier: string): ts.Symbol[] {
  const declaration = file.statements.find((statement): statement is ts.ImportDeclaration => ts.isImportDeclaration(statement) && (statement.moduleSpecifier as ts.StringLiteral).text === specifier);
  const module = declaration && checker.getSymbolAtLocation(declaration.moduleSpecifier);
  if (!module) throw new Error(`${file.fileName} does not import a resolvable '${specifier}'`);
  return checker.getExportsOfModule(module);
}

/** Walks one export's declarations: explicit `any`s, and engram types they name that no entry exports. */
function inspect(checker: ts.TypeChecker, symbol: ts.Symbol, isPublic: (symbol: ts.Symbol) => boolean, isEngram: (node: ts.Node) => boolean) {
  const unexported: string[] = [];
  let any = false;
  // A type-only export (`export { type X }`) publishes X's type, not the value that may share
  // its name (a zod schema): that value's declaration is not part of the surface.
  const typeOnly = symbol.declarations?.some((node) => ts.isExportSpecifier(node) && (node.isTypeOnly || node.parent.parent.isTypeOnly)) ?? false;
  const visit = (child: ts.Node): void => {
    if (child.kind === ts.SyntaxKind.AnyKeyword) any = true;
    if (ts.isTypeReferenceNode(child) || ts.isExpressionWithTypeArguments(child) || ts.isTypeQueryNode(child)) {
      const name = ts.isTypeReferenceNode(child) ? child.typeName : ts.isTypeQueryNode(child) ? child.exprName : child.expression;
      const target = checker.getSymbolAtLocation(name);
      const real = target && resolved(checker, target);
      const declared = real?.declarations?.[0];
      if (real && declared && isEngram(declared) && !(real.flags & ts.SymbolFlags.TypeParameter) && !isPublic(real)) unexported.push(real.name);
    }
    ts.forEachChild(child, visit);
  };
  for (const node of resolved(checker, symbol).declarations ?? []) {
    if (!(typeOnly && (ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node)))) visit(node);
  }
  return { unexported, any };
}

/**
 * `consumerFile` must import each of `specifiers` (the first is the main entry); `packageDir`
 * is the installed package, with a trailing slash. A type exported by any entry is public.
 */
export async function publicSurface(consumerFile: string, packageDir: string, specifiers: readonly string[]): Promise<PublicSurface> {
  const program = ts.createProgram([consumerFile], OPTIONS);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(consumerFile)!;
  const entries = new Map(specifiers.map((specifier) => [specifier, exportsOf(checker, file, specifier)] as const));
  const publicSymbols = new Set([...entries.values()].flat().map((symbol) => resolved(checker, symbol)));
  const isEngram = (node: ts.Node) => node.getSourceFile().fileName.startsWith(packageDir);
  const unexported = new Set<string>();
  const anys = new Set<string>();
  for (const [specifier, exported] of entries) {
    for (const symbol of exported) {
      const found = inspect(checker, symbol, (candidate) => publicSymbols.has(candidate), isEngram);
      for (const name of found.unexported) unexported.add(`${name} (in ${specifier} ${symbol.name})`);
      if (found.any) anys.add(`${specifier} ${symbol.name}`);
    }
  }
  const main = entries.get(specifiers[0]!)!;
  const options = main.find((symbol) => symbol.name === 'MemoryOptions');
  return {
    exports: main.map((symbol) => symbol.name),
    entries: Object.fromEntries([...entries].map(([specifier, exported]) => [specifier, exported.map((symbol) => symbol.name)])),
    unexported: [...unexported].sort(),
    anys: [...anys].sort(),
    memoryOptions: options
      ? checker
          .getDeclaredTypeOfSymbol(resolved(checker, options))
          .getProperties()
          .map((property) => property.name)
      : [],
  };
}
