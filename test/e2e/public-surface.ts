/**
 * What the published declarations promise, read with the TypeScript checker from a consumer
 * file's `import … from 'engram'`: the exported names, any engram type a public declaration
 * names without exporting it (a user cannot write that type down), explicit `any`s, and the
 * properties of MemoryOptions (where a test hook once leaked).
 */
import ts from 'typescript';

export interface PublicSurface {
  exports: string[];
  /** `Name (in Export)` for each unexported engram type a public declaration refers to. */
  unexported: string[];
  /** `Export` for each public declaration that spells out `any`. */
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

/** `consumerFile` must import from 'engram'; `packageDir` is the installed package (with trailing slash). */
export async function publicSurface(consumerFile: string, packageDir: string): Promise<PublicSurface> {
  const program = ts.createProgram([consumerFile], OPTIONS);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(consumerFile)!;
  const declaration = source.statements.find(
    (statement): statement is ts.ImportDeclaration => ts.isImportDeclaration(statement) && (statement.moduleSpecifier as ts.StringLiteral).text === 'engram',
  );
  const module = declaration && checker.getSymbolAtLocation(declaration.moduleSpecifier);
  if (!module) throw new Error(`${consumerFile} does not import a resolvable 'engram'`);
  const exported = checker.getExportsOfModule(module);
  const publicSymbols = new Set(exported.map((symbol) => resolved(checker, symbol)));
  const unexported = new Set<string>();
  const anys = new Set<string>();
  const isEngram = (node: ts.Node) => node.getSourceFile().fileName.startsWith(packageDir);

  for (const symbol of exported) {
    // A type-only export (`export { type X }`) publishes X's type, not the value that may share
    // its name (a zod schema): that value's declaration is not part of the surface.
    const typeOnly = symbol.declarations?.some((node) => ts.isExportSpecifier(node) && (node.isTypeOnly || node.parent.parent.isTypeOnly)) ?? false;
    for (const node of resolved(checker, symbol).declarations ?? []) {
      if (typeOnly && (ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node))) continue;
      const visit = (child: ts.Node): void => {
        if (child.kind === ts.SyntaxKind.AnyKeyword) anys.add(symbol.name);
        if (ts.isTypeReferenceNode(child) || ts.isExpressionWithTypeArguments(child) || ts.isTypeQueryNode(child)) {
          const name = ts.isTypeReferenceNode(child) ? child.typeName : ts.isTypeQueryNode(child) ? child.exprName : child.expression;
          const target = checker.getSymbolAtLocation(name);
          const real = target && resolved(checker, target);
          const declared = real?.declarations?.[0];
          if (real && declared && isEngram(declared) && !(real.flags & ts.SymbolFlags.TypeParameter) && !publicSymbols.has(real)) {
            unexported.add(`${real.name} (in ${symbol.name})`);
          }
        }
        ts.forEachChild(child, visit);
      };
      visit(node);
    }
  }
  const options = exported.find((symbol) => symbol.name === 'MemoryOptions');
  const memoryOptions = options ? checker.getDeclaredTypeOfSymbol(resolved(checker, options)).getProperties().map((property) => property.name) : [];
  return { exports: exported.map((symbol) => symbol.name), unexported: [...unexported].sort(), anys: [...anys].sort(), memoryOptions };
}
