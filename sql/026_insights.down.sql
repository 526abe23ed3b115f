-- Undo 026_insights.sql. The functions of sql/functions/docs_insights.sql stay, as every function
-- file does on a downgrade (design/sql-layout.md), but the trigger that counts feedback goes: it
-- would write to a table that is no more. docs_prune_expired, which prunes these tables, is
-- applied again from its file by the docschat that runs next (its checksum differs).
drop trigger if exists docs_insight_feedback_count on public.docs_chat_feedback;
drop table if exists public.docs_insight_question;
drop table if exists public.docs_insight_topic_total;
drop table if exists public.docs_insight_topic;
drop table if exists public.docs_insight_no_result;
drop table if exists public.docs_insight_page;
drop table if exists public.docs_insight_door;
drop table if exists public.docs_insight_day;
-- Forget the checksums of the files that name these tables, so the next upgrade to head applies
-- them again (the trigger above included).
do $$
begin
  if pg_catalog.to_regclass('public.docschat_sql_file') is not null then
    delete from public.docschat_sql_file where name in ('docs_insights.sql', 'docs_prune_expired.sql');
  end if;
end
$$;
