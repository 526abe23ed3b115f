# no page includes this file: marker-inc-unused
