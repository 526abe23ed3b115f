-- docs_one_edit_apart: whether b is a (one substitution, insertion, deletion, or swap of two
-- neighbours) away; a = b is not. Plain plpgsql: the server has no fuzzystrmatch or pg_trgm.
create or replace function public.docs_one_edit_apart(a text, b text) returns boolean
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  la integer := pg_catalog.length(a);
  lb integer := pg_catalog.length(b);
  i integer := 1;
begin
  if a = b or abs(la - lb) > 1 then
    return false;
  end if;
  while i <= least(la, lb) and pg_catalog.substr(a, i, 1) = pg_catalog.substr(b, i, 1) loop
    i := i + 1;
  end loop;
  if la = lb then
    return pg_catalog.substr(a, i + 1) = pg_catalog.substr(b, i + 1)
        or (pg_catalog.substr(a, i, 1) = pg_catalog.substr(b, i + 1, 1)
            and pg_catalog.substr(a, i + 1, 1) = pg_catalog.substr(b, i, 1)
            and pg_catalog.substr(a, i + 2) = pg_catalog.substr(b, i + 2));
  elsif la > lb then
    return pg_catalog.substr(a, i + 1) = pg_catalog.substr(b, i);
  end if;
  return pg_catalog.substr(a, i) = pg_catalog.substr(b, i + 1);
end
$$;
