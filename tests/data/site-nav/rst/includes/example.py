def example():
    return "marker-rst-literalinclude-shown"
