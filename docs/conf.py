# Sphinx's configuration of zgpu's manual: Sphinx alone, no extension (Debian's python3-sphinx).
# scripts/docs builds it, after docs/figures.py has made docs/_generated/.
import os
import re

_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(_root, "CMakeLists.txt"), encoding="utf-8") as _f:
    release = re.search(r"project\(zgpu [^)]*VERSION ([0-9.]+)", _f.read()).group(1)
version = release

project = "zgpu"
author = "the zgpu authors"
extensions = []
# FLINT's manual documents C functions; C++ ones say cpp: explicitly.
primary_domain = "c"
highlight_language = "none"
# Generated tables are .inc files that pages include, not pages of their own.
exclude_patterns = ["_generated"]
html_theme = "alabaster"
html_theme_options = {"description": "FLINT and NTL integer arithmetic on NVIDIA GPUs", "fixed_sidebar": True}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_show_sourcelink = False
