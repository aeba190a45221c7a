"""tcod's submodules without its package: the map, path and console modules the game uses.

`import tcod.map` would first run tcod/__init__.py, which imports every submodule (SDL events, contexts,
tilesets...) and cffi's C parser, a third of the start-up of `xenotac play`. Here the package is
registered as an empty shell and its compiled library is handed to the submodules as `tcod.cffi`, so
`import tcod.map` loads only that module. If the installed tcod is laid out differently, the package
is imported as usual.
"""

from __future__ import annotations

import importlib.util
import sys
import types


def install() -> None:
    if "tcod" in sys.modules:
        return
    spec = importlib.util.find_spec("tcod")
    if spec is None or not spec.submodule_search_locations:
        return
    sys.modules["tcod"] = importlib.util.module_from_spec(spec)  # __path__ set, __init__ not run
    try:
        from tcod._libtcod import ffi, lib

        shim = types.ModuleType("tcod.cffi", "libtcod's compiled cffi module (engine.map.tcodlib)")
        shim.ffi, shim.lib = ffi, lib
        shim.__sdl_version__ = ""
        sys.modules["tcod.cffi"] = shim
        _route_log(ffi, lib)
    except Exception:  # noqa: BLE001 - another layout: the whole package, as tcod means it
        for name in [m for m in sys.modules if m == "tcod" or m.startswith("tcod.")]:
            del sys.modules[name]
        importlib.import_module("tcod")


def _route_log(ffi, lib) -> None:
    """libtcod's messages to Python's logging, as tcod.cffi does: never to the terminal Textual draws on."""
    @ffi.def_extern(name="_libtcod_log_watcher")
    def _watch(message, _userdata) -> None:
        import logging  # only when libtcod has something to say: logging is not free to import

        text = str(ffi.string(message.message), encoding="utf-8")
        source = str(ffi.string(message.source), encoding="utf-8")
        logging.getLogger("tcod").log(int(message.level), "%s:%d:%s", source, int(message.lineno), text)

    lib.TCOD_set_log_callback(lib._libtcod_log_watcher, ffi.NULL)
    lib.TCOD_set_log_level(0)


install()
