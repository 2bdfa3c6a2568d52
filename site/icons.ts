/**
 * Category icons: the content names each category's icon after Lucide (`code`, `bar-chart`,
 * `flask-conical`, …). The page bundles only the icons of the shipped categories (imported one by
 * one, so the bundle carries these and not Lucide's two thousand); a category whose icon is not
 * among them keeps its colored initial (`badge` in app.ts).
 */
import {
  Atom, BarChart, Brain, Briefcase, Cloud, Code, Container, Database, FlaskConical, GraduationCap, Handshake, Layout, LifeBuoy,
  Megaphone, Microscope, Palette, PenTool, Plug, Scale, Server, Shield, Smartphone, Users, Wallet, Zap, type IconNode,
} from 'lucide';

const ICONS: Readonly<Record<string, IconNode>> = {
  code: Code, layout: Layout, server: Server, container: Container, 'bar-chart': BarChart, brain: Brain, shield: Shield,
  smartphone: Smartphone, cloud: Cloud, database: Database, 'flask-conical': FlaskConical, plug: Plug, megaphone: Megaphone,
  palette: Palette, scale: Scale, wallet: Wallet, users: Users, 'graduation-cap': GraduationCap, 'pen-tool': PenTool,
  handshake: Handshake, 'life-buoy': LifeBuoy, briefcase: Briefcase, zap: Zap, microscope: Microscope, atom: Atom,
};

const SVG = 'http://www.w3.org/2000/svg';

/** The icon named `name` as an `<svg>` in a badge (decorative: the category's name is beside it), or undefined. */
export function categoryIcon(name: string, extra = ''): HTMLElement | undefined {
  const node = Object.hasOwn(ICONS, name) ? ICONS[name] : undefined;
  if (node === undefined) return undefined;
  const svg = document.createElementNS(SVG, 'svg');
  for (const [attribute, value] of Object.entries({ viewBox: '0 0 24 24', width: '22', height: '22', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'aria-hidden': 'true', focusable: 'false' })) {
    svg.setAttribute(attribute, value);
  }
  for (const [tag, attributes] of node) {
    const child = document.createElementNS(SVG, tag);
    for (const [attribute, value] of Object.entries(attributes)) if (value !== undefined) child.setAttribute(attribute, String(value));
    svg.append(child);
  }
  const badge = document.createElement('span');
  badge.className = `badge icon ${extra}`.trim();
  badge.setAttribute('aria-hidden', 'true');
  badge.dataset.icon = name;
  // The same hue for a category whatever its icon (as the initial badges get).
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.codePointAt(0)!) % 360;
  badge.style.setProperty('--hue', String(hash));
  badge.append(svg);
  return badge;
}
