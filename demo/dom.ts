/**
 * A few lines of DOM building so the page needs no framework. Text always goes in as text
 * nodes: memory contents are user input and must never be parsed as HTML.
 */
export type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** Creates `<tag>` with attributes (`on…` functions become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...toNodes(children));
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element (no listeners: drawings here are static). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...toNodes(children));
  return element;
}

function setAttributes(element: HTMLElement, attributes: Attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') element.className = String(value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
}

function toNodes(children: (Child | Child[])[]): Node[] {
  return children.flat().flatMap((child) => {
    if (child === null || child === undefined || child === false) return [];
    return [typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child];
  });
}

/** Replaces every child of `target`. */
export function mount(target: Element, ...children: (Child | Child[])[]) {
  target.replaceChildren(...toNodes(children));
}

/** The element with this id; a missing one is a bug in index.html, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no element #${id}`);
  return element as T;
}

export const fixed = (value: number, digits = 2) => value.toFixed(digits);
