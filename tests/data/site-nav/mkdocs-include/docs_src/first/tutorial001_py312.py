# not a suffix markdown-include-variants knows: marker-inc-not-a-variant
