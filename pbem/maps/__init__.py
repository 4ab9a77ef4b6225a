"""Board geometry for the rules and for the pictures: area graphs, hex grids, layouts, SVG."""
