// The table layouts (js/layouts/<name>.js), loaded on demand by the pages that draw a game's table:
// the table, the puzzles and the replay viewer. A layout is named by kind (`beating`, `trick`), not by game.

import { el } from "./dom.js";

const loaded = {};

/** Return the module of the layout `name`, loading it and its stylesheet (its `STYLE`, if any) once. */
export function layoutModule(name) {
  if (!loaded[name]) {
    loaded[name] = import(`./layouts/${encodeURIComponent(name)}.js`).then((module) => {
      if (module.STYLE) {
        const link = el("link");
        link.rel = "stylesheet";
        link.href = module.STYLE;
        document.head.append(link);
      }
      return module;
    });
  }
  return loaded[name];
}
