-- trim_docs_query_embedding: the trigger that keeps the question-embedding cache to its newest
-- 200 rows (the cache is for repeated questions, not an archive).
create or replace function public.trim_docs_query_embedding() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Keep the newest 200 rows: the cache is for repeated questions, not an archive.
  delete from public.docs_query_embedding
  where id in (
    select id from public.docs_query_embedding
    order by created_at desc, id desc
    offset 200
  );
  return null;
end
$$;

create or replace trigger docs_query_embedding_keep_newest
after insert on public.docs_query_embedding
for each statement execute function public.trim_docs_query_embedding();
