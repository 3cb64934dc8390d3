/**
 * How consumers use each type of a package, read off its declarations: what its functions
 * return (and the values it exports) consumers read; what its functions take, consumers
 * write; inside a parameter the direction turns (a callback the consumer writes gets
 * arguments it reads). A type is compared with its old self the ways it is used: one that
 * consumers only read may gain required fields and narrow, one they only write may gain
 * optional fields and widen; a type no function of the package uses is held both ways.
 */
import { Node, SyntaxKind, type Symbol as MorphSymbol } from "ts-morph";

export type Direction = "reads" | "writes";

const flip = (d: Direction): Direction => (d === "reads" ? "writes" : "reads");

/** A parameter turns the direction: what a consumer passes in, it writes. */
const hasParameters = (node: Node) => Node.isParameterDeclaration(node);

export class Variance {
  /** The directions each declaration is used in. */
  readonly uses = new Map<Node, Set<Direction>>();

  /** Walks an exported value's declaration: consumers read the value (a class: its instances). */
  value(declaration: Node): void {
    if (Node.isClassDeclaration(declaration)) this.record(declaration, "reads");
    else this.walk(declaration, "reads");
  }

  /** How `declarations` (of one exported type) are used; empty when no function uses them. */
  directionsOf(declarations: readonly Node[]): Set<Direction> {
    const out = new Set<Direction>();
    for (const d of declarations) this.uses.get(d)?.forEach((x) => out.add(x));
    return out;
  }

  private record(declaration: Node, direction: Direction): void {
    const seen = this.uses.get(declaration) ?? new Set<Direction>();
    if (seen.has(direction)) return;
    seen.add(direction);
    this.uses.set(declaration, seen);
    this.walk(declaration, direction);
  }

  private follow(symbol: MorphSymbol | undefined, direction: Direction): void {
    const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
    for (const declaration of target?.getDeclarations() ?? []) {
      if (Node.isTypeParameterDeclaration(declaration)) continue;
      if (declaration.getSourceFile().isFromExternalLibrary()) continue;
      if (declaration.getSourceFile().isInNodeModules()) continue;
      this.record(declaration, direction);
    }
  }

  private walk(node: Node, direction: Direction): void {
    node.forEachChild((child) => {
      if (Node.isJSDoc(child) || Node.isDecorator(child)) return;
      if (Node.isTypeReference(child)) this.follow(child.getTypeName().getSymbol(), direction);
      else if (Node.isExpressionWithTypeArguments(child))
        this.follow(child.getExpression().getSymbol(), direction);
      else if (Node.isTypeQuery(child)) this.follow(child.getExprName().getSymbol(), direction);
      else if (Node.isImportTypeNode(child)) {
        const symbol = child.getType().getAliasSymbol() ?? child.getType().getSymbol();
        this.follow(symbol, direction);
      } else if (child.getKind() === SyntaxKind.Block) return; // bodies are no surface
      this.walk(child, hasParameters(child) ? flip(direction) : direction);
    });
  }
}
