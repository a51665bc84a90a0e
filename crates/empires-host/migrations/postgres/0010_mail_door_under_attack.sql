-- The mail door under attack (docs/security.md).
--
-- A message is recognised as delivered again only when it is the same message: the same
-- sender, the same Message-ID and the same content. `mail_seen.message_key` names that
-- (a hash of the three); `message_id` keeps the Message-ID alone, so that another message
-- reusing it (another sender, or other content) is noticed and noted in the mail log, and
-- read all the same. Messages seen before this migration keep their old key (the
-- Message-ID alone); their Message-ID is filled in from it.
ALTER TABLE mail_seen ADD COLUMN message_id TEXT;
UPDATE mail_seen SET message_id = substr(message_key, 4) WHERE message_key LIKE 'id:%';
CREATE INDEX mail_seen_message_id ON mail_seen (message_id);

-- The refusals the door answered to one address in the past hour are counted from the
-- outbox (kind 'refusal', by recipient and time), to answer only so many: several
-- processes taking mail in share the count.
CREATE INDEX outbox_by_recipient ON outbox (recipient, kind, created_at);
