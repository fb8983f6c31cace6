// Real RCPT-stage replies (as servers send them; our IP and sender replaced by 203.0.113.9 and
// verify@probe.example), with the class each must get. Multi-line replies are arrays. Nothing about
// us (reputation, rate, DNS, sender, policy) may read as "mailbox does not exist".
import { describe, expect, it } from 'vitest';
import { classifyReply, parseReplyLines, type ReplyClass } from './reply-codes';

type Case = [source: string, lines: string[], expected: ReplyClass];
const run = (lines: string[]) => classifyReply(parseReplyLines(lines));

// ---- Not about the mailbox, though worded or coded like it: never mailbox_not_found / mailbox_disabled
const falseInvalid: Case[] = [
  ['Exim: default text of an ACL "deny" with no message', ['550 Administrative prohibition'], 'policy_block'],
  ['freenet.de (Exim): our PTR, after RCPT TO', ['550-inconsistent or no DNS PTR record for 203.0.113.9 (see RFC', '550 1912 2.1)'], 'policy_block'],
  ['web.de / GMX / 1&1 (Nemesis): our sender domain has no valid MX/A', ['550-Requested action not taken: mailbox unavailable', '550 invalid DNS MX or A/AAAA resource record'], 'policy_block'],
  ['QQ Mail: per-IP rate limit', ['550 Ip frequency limited. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000722'], 'policy_block'],
  ['QQ Mail: per-connection rate limit', ['550 Connection frequency limited. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000722'], 'policy_block'],
  ['Cisco ESA (IronPort): RAT reject = relay refused ("#5.7.1" not parsed)', ['550 #5.7.1 Your access to submit messages to this e-mail system has been rejected.'], 'policy_block'],
  ['Cisco ESA (IronPort): default SPF reject text', ['550 #5.7.1 SPF unauthorized mail is prohibited.'], 'policy_block'],
  // A bare 550 is RFC 5321's "mailbox unavailable (e.g., mailbox not found, no access, or command
  // rejected for policy reasons)": unless its text says the user is unknown, it proves nothing.
  ['bare 550: dynamic-address block (Sendmail access map)', ['550 Dynamic IP addresses are not accepted here'], 'policy_block'],
  ['bare 550: residential block', ['550 Residential IP space not accepted'], 'policy_block'],
  ['bare 550: concurrency limit', ['550 Too many concurrent SMTP connections from this host'], 'policy_block'],
  ['bare 550: sending rate', ['550 Sending rate exceeded, try later'], 'policy_block'],
  ['bare 550: rate under RFC 5321 text', ['550 Requested action not taken: too many emails per second'], 'policy_block'],
  ['bare 550: hourly limit (not a full mailbox)', ['550 Exceeded the maximum number of messages per hour'], 'policy_block'],
  ['bare 550: service down', ['550 Service not available'], 'policy_block'],
  ['bare 550: temporary in a 5xx', ['550 Temporary failure, please retry'], 'policy_block'],
  ['bare 550: busy', ['550 System is busy, please retry later'], 'policy_block'],
  ['bare 550: about our address', ['550 Not accepting mail from this IP'], 'policy_block'],
  ['bare 550: generic refusal', ['550 Message rejected'], 'policy_block'],
  ['bare 550: a server that could not check', ['550 Unable to verify user'], 'policy_block'],
  ['bare 550: local error', ['550 Local error in processing'], 'policy_block'],
  ['5.1.1 with a connection limit for text', ['550 5.1.1 Too many connections, slow down'], 'policy_block'],
  // RFC 3463: X.2.X says the mailbox exists; only 5.2.1 (disabled) and 5.2.2 (full) say more.
  ['5.2.0 with the RFC 5321 550 text', ['550 5.2.0 Requested action not taken: mailbox unavailable'], 'policy_block'],
  ['5.2.0 worded as unknown', ['550 5.2.0 User unknown'], 'policy_block'],
  // An account that is disabled or locked, but ours (the sender, the client), not the recipient's.
  ['our sender locked', ['550 Sender account locked'], 'policy_block'],
  ['our sender suspended (5.2.1)', ['550 5.2.1 Sender account is suspended'], 'policy_block'],
  // "Not authorized" is about us (our sender, our client, a closed list), never a sign the mailbox is missing.
  ['5.1.1 with our sender not authorized', ['550 5.1.1 Sender not authorized'], 'policy_block'],
  ['5.1.1 with a recipient not authorized for us', ['550 5.1.1 <alice@example.com>: You are not authorized to send mail to this recipient'], 'policy_block'],
  ['5.1.1 with unauthorized mail', ['550 5.1.1 Unauthorized sender for this recipient'], 'policy_block'],
  ['our account, in the second person', ['550 Your account has been disabled'], 'policy_block'],
  // A full mailbox exists, whatever mailbox code comes with the words (5.2.2 is the right one).
  ['full mailbox under 5.2.1', ['550 5.2.1 <alice@example.com>: Recipient address rejected: Mailbox over quota'], 'mailbox_full'],
  ['full mailbox under 5.1.1', ['550 5.1.1 Boite du destinataire pleine. Recipient overquota. OFR_417 [417]'], 'mailbox_full'],
  ['storage quota under 5.2.1', ['554 5.2.1 The user has exceeded their storage quota'], 'mailbox_full'],
  // Postfix's reject_unverified_recipient (unverified_recipient_reject_code = 550) bounces with its own
  // probe's reason: about the route to the next hop (every address of the domain, real ones too), or
  // the next hop's own reply, which says what it says.
  ['Postfix reject_unverified_recipient: its probe looped (a relay misconfigured)', ['550 5.1.1 <alice@example.com>: Recipient address rejected: undeliverable address: mail for example.com loops back to myself'], 'policy_block'],
  ['Postfix reject_unverified_recipient: the next hop has no address', ['550 5.1.1 <alice@example.com>: Recipient address rejected: undeliverable address: Host or domain name not found. Name service error for name=exchange.corp.example.com type=A: Host not found'], 'policy_block'],
  ['Postfix reject_unverified_recipient: the next hop refused its probe (a bare 550)', ['550 5.1.1 <alice@example.com>: Recipient address rejected: undeliverable address: host exchange.corp.example.com[192.0.2.10] said: 550 Message rejected (in reply to RCPT TO command)'], 'policy_block'],
  ['Postfix reject_unverified_recipient: the next hop refused its MAIL FROM', ['550 5.1.1 <alice@example.com>: Recipient address rejected: undeliverable address: host exchange.corp.example.com[192.0.2.10] said: 550 5.7.1 Client does not have permissions to send as this sender (in reply to MAIL FROM command)'], 'policy_block'],
  // The mailbox exists and gets more mail than Google lets in: a rate, under the "disabled" code 5.2.1.
  ['Gmail receiving rate, permanent (5.2.1)', ['550-5.2.1 The user you are trying to contact is receiving mail at a rate that', '550-5.2.1 prevents additional messages from being delivered. For more', '550-5.2.1 information, please visit', '550 5.2.1  https://support.google.com/mail/?p=ReceivingRatePerm p41si4843565qte.548 - gsmtp'], 'policy_block'],
  ['receiving too quickly under 5.2.1', ['550 5.2.1 The user you are trying to contact is receiving mail too quickly'], 'policy_block'],
];

// ---- A clear "user unknown": mailbox_not_found
const missedUnknown: Case[] = [
  ['Yahoo / AOL', ["554 delivery error: dd This user doesn't have a yahoo.com account (nobody@yahoo.com) [0] - mta4012.mail.gq1.yahoo.com"], 'mailbox_not_found'],
  // Yandex puts 5.7.1 (policy) on unknown users: read as policy, it errs towards risky, never invalid.
  ['Yandex', ['550 5.7.1 No such user!'], 'policy_block'],
  ['bare 550, RFC 5321 text only', ['550 Requested action not taken'], 'mailbox_not_found'],
  ['bare 550, mailbox not available', ['550 Mailbox not available'], 'mailbox_not_found'],
  ["the recipient's account disabled", ['550 The user account is disabled'], 'mailbox_disabled'],
  ['5.2.0 worded as disabled', ['550 5.2.0 Mailbox disabled, not accepting messages'], 'mailbox_disabled'],
];

// ---- A temporary server condition is never final: 452 (the server's disk) is retried
const tempMadeFinal: Case[] = [
  ['Postfix: queue file system low (queue_minfree) — the server, not the mailbox', ['452 4.3.1 Insufficient system storage'], 'temporary'],
];

// ---- The rest of the corpus
const passing: Case[] = [
  // Gmail / Google Workspace
  ['Gmail unknown', ['550-5.1.1 The email account that you tried to reach does not exist. Please try', "550-5.1.1 double-checking the recipient's email address for typos or", '550-5.1.1 unnecessary spaces. For more information, go to', '550 5.1.1  https://support.google.com/mail/?p=NoSuchUser 41be03b00d2f7-b1a2c3d4e5si123456a12.123 - gsmtp'], 'mailbox_not_found'],
  ['Gmail disabled', ['550-5.2.1 The email account that you tried to reach is disabled. Learn more at', '550 5.2.1  https://support.google.com/mail/?p=DisabledUser 41be03b00d2f7-b1a2c3d4e5si123456a12.123 - gsmtp'], 'mailbox_disabled'],
  ['Gmail over quota (4.2.2)', ['452-4.2.2 The email account that you tried to reach is over quota. Please direct', '452-4.2.2 the recipient to', '452 4.2.2  https://support.google.com/mail/?p=OverQuotaTemp 41be03b00d2f7-b1a2c3d4e5si123456a12.123 - gsmtp'], 'mailbox_full'],
  ['Gmail PBL / not authorized IP', ["550-5.7.1 [203.0.113.9] The IP you're using to send mail is not authorized to", '550-5.7.1 send email directly to our servers. Please use the SMTP relay at your', '550-5.7.1 service provider instead. For more information, go to', '550 5.7.1  https://support.google.com/mail/?p=NotAuthorizedError 41be03b00d2f7-b1a2c3d4e5si123456a12.123 - gsmtp'], 'policy_block'],
  ['Gmail PTR', ['550-5.7.25 [203.0.113.9] The IP address sending this message does not have a', '550-5.7.25 PTR record setup, or the corresponding forward DNS entry does not', '550-5.7.25 point to the sending IP. As a policy, Gmail does not accept messages', '550-5.7.25 from IPs with missing PTR records. For more information, go to', '550 5.7.25  https://support.google.com/mail/answer/81126#ip-practices 41be03b00d2f7-b1a2c3d4e5si123456a12.123 - gsmtp'], 'policy_block'],
  ['Gmail unsolicited rate', ['421-4.7.0 [203.0.113.9      15] Our system has detected an unusual rate of', '421-4.7.0 unsolicited mail originating from your IP address. To protect our', '421-4.7.0 users from spam, mail sent from your IP address has been temporarily', '421 4.7.0 rate limited. https://support.google.com/mail/?p=UnsolicitedRateLimitError - gsmtp'], 'service_closing'],
  ['Gmail receiving rate', ['450-4.2.1 The user you are trying to contact is receiving mail at a rate that', '450-4.2.1 prevents additional messages from being delivered. Please resend your', '450-4.2.1 message at a later time. If the user is able to receive mail at that', '450 4.2.1 time, your message will be delivered. https://support.google.com/mail/?p=ReceivingRate - gsmtp'], 'temporary'],
  ['Google Workspace domain policy', ['550-5.7.1 [203.0.113.9] The user or domain that you are sending to (or from) has a policy that', '550-5.7.1 prohibited the mail that you sent. Please contact your domain', '550-5.7.1 administrator for further details. For more information, go to', '550 5.7.1  https://support.google.com/a/answer/172179 - gsmtp'], 'policy_block'],
  ['Google Workspace relay denied', ['550-5.7.0 Mail relay denied [203.0.113.9]. Invalid credentials for relay for', '550-5.7.0 one of the domains in: [probe.example] (as obtained from HELO and MAIL FROM).', '550 5.7.0 Email is being sent from a domain or IP address which isn\'t registered in your Workspace account. - gsmtp'], 'policy_block'],
  ['Gmail temp', ['451-4.3.0 Mail server temporarily rejected message.', '451 4.3.0  - gsmtp'], 'temporary'],
  // Microsoft
  ['Outlook.com unknown', ['550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [DM6NAM12FT012.eop-nam12.prod.protection.outlook.com]'], 'mailbox_not_found'],
  ['Exchange/EXO unknown', ['550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'], 'mailbox_not_found'],
  ['M365 DBEB', ['550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [AM4PEPF00027A5F.eurprd04.prod.outlook.com]'], 'mailbox_not_found'],
  ['Outlook.com block list', ["550 5.7.1 Unfortunately, messages from [203.0.113.9] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors. [BN1NAM02FT012.eop-nam02.prod.protection.outlook.com]"], 'policy_block'],
  ['Outlook.com IP reputation rate limit', ['451 4.7.650 The mail server [203.0.113.9] has been temporarily rate limited due to IP reputation. For e-mail delivery information, see https://postmaster.live.com (S775) [BN1NAM02FT012.eop-nam02.prod.protection.outlook.com]'], 'temporary'],
  ['EOP banned IP', ['550 5.7.606 Access denied, banned sending IP [203.0.113.9]. To request removal from this list please visit https://sender.office.com/ and follow the directions. For more information please go to  http://go.microsoft.com/fwlink/?LinkID=526655 AS(1430) [DM6NAM12FT012.eop-nam12.prod.protection.outlook.com]'], 'policy_block'],
  ['EOP Spamhaus', ['550 5.7.1 Service unavailable, Client host [203.0.113.9] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/ip/203.0.113.9 AS(1450) [DM6NAM12FT012.eop-nam12.prod.protection.outlook.com]'], 'policy_block'],
  ['EOP tenant attribution', ['550 5.7.64 TenantAttribution; Relay Access Denied [DM6NAM12FT012.eop-nam12.prod.protection.outlook.com]'], 'policy_block'],
  ['EOP busy', ['451 4.7.500 Server busy. Please try again later from [203.0.113.9]. (S77714) [DM6NAM12FT012.eop-nam12.prod.protection.outlook.com]'], 'temporary'],
  ['Exchange on-prem unknown', ['550 5.1.1 User unknown'], 'mailbox_not_found'],
  ['Exchange on-prem relay', ['550 5.7.1 Unable to relay'], 'policy_block'],
  ['Exchange on-prem anonymous', ['530 5.7.1 Client was not authenticated'], 'policy_block'],
  ['Exchange sender filter', ['554 5.1.0 Sender denied'], 'policy_block'],
  ['Exchange back-pressure', ['452 4.3.1 Insufficient system resources'], 'temporary'],
  ['Exchange recipient limit', ['452 4.5.3 Too many recipients'], 'too_many_recipients'],
  // Yahoo / AOL
  ['Yahoo disabled', ['554 delivery error: dd Sorry, your message to nobody@yahoo.com cannot be delivered. This mailbox is disabled (554.30). - mta4012.mail.gq1.yahoo.com'], 'mailbox_disabled'],
  ['Yahoo over quota', ['554 delivery error: dd Sorry, your message to nobody@yahoo.com cannot be delivered. This account is over quota. - mta4012.mail.gq1.yahoo.com'], 'mailbox_full'],
  ['Yahoo TSS04', ['421 4.7.0 [TSS04] Messages from 203.0.113.9 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes'], 'service_closing'],
  ['Yahoo BL21', ["553 5.7.1 [BL21] Connections will not be accepted from 203.0.113.9, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes"], 'policy_block'],
  ['Yahoo excessive unknown recipients', ['451 VS1-IP Excessive unknown recipients - possible Open Relay (#4.1.8)'], 'temporary'],
  ['Yahoo (old) unknown', ['552 1 Requested mail action aborted, mailbox not found'], 'mailbox_not_found'],
  // iCloud
  ['iCloud unknown', ['550 5.1.1 <nobody@icloud.com>: user does not exist'], 'mailbox_not_found'],
  ['iCloud unknown alias', ['550 5.1.1 unknown or illegal alias: nobody@me.com'], 'mailbox_not_found'],
  ['iCloud CS01', ['554 5.7.1 [CS01] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137'], 'policy_block'],
  // Postfix
  ['Postfix local recipient table', ['550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in local recipient table'], 'mailbox_not_found'],
  ['Postfix relay recipient table', ['550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in relay recipient table'], 'mailbox_not_found'],
  ['Postfix/Zimbra virtual alias table', ['550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in virtual alias table'], 'mailbox_not_found'],
  ['Postfix reject_unverified_recipient (downstream said unknown)', ['550 5.1.1 <nobody@example.com>: Recipient address rejected: undeliverable address: host mail.example.com[192.0.2.10] said: 550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command)'], 'mailbox_not_found'],
  ['Postfix reject_unverified_recipient (local delivery said unknown)', ['550 5.1.1 <nobody@example.com>: Recipient address rejected: undeliverable address: unknown user: "nobody"'], 'mailbox_not_found'],
  ['Postfix reject_unverified_recipient (downstream said disabled)', ['550 5.1.1 <nobody@example.com>: Recipient address rejected: undeliverable address: host mail.example.com[192.0.2.10] said: 550 5.2.1 <nobody@example.com>: Mailbox disabled (in reply to RCPT TO command)'], 'mailbox_disabled'],
  ['Postfix reject_unverified_recipient in progress', ['450 4.1.1 <nobody@example.com>: Recipient address rejected: unverified address: Address verification in progress'], 'temporary'],
  ['Postfix reject_unknown_recipient_domain', ['450 4.1.2 <nobody@example.com>: Recipient address rejected: Domain not found'], 'temporary'],
  ['Postfix reject_unauth_destination', ['554 5.7.1 <nobody@example.com>: Relay access denied'], 'policy_block'],
  ['Postfix reject_rbl_client', ['554 5.7.1 Service unavailable; Client host [203.0.113.9] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/203.0.113.9'], 'policy_block'],
  ['Postfix reject_unknown_client_hostname', ['450 4.7.1 Client host rejected: cannot find your hostname, [203.0.113.9]'], 'temporary'],
  ['Postfix reject_unknown_reverse_client_hostname (5xx)', ['550 5.7.1 Client host rejected: cannot find your reverse hostname, [203.0.113.9]'], 'policy_block'],
  ['Postfix check_client_access', ['554 5.7.1 <unknown[203.0.113.9]>: Client host rejected: Access denied'], 'policy_block'],
  ['Postfix reject_non_fqdn_helo_hostname', ['504 5.5.2 <localhost>: Helo command rejected: need fully-qualified hostname'], 'policy_block'],
  ['Postfix reject_unknown_sender_domain (temp)', ['450 4.1.8 <verify@probe.example>: Sender address rejected: Domain not found'], 'temporary'],
  ['Postfix sender login mismatch', ['553 5.7.1 <verify@probe.example>: Sender address rejected: not logged in'], 'policy_block'],
  ['postgrey', ['450 4.2.0 <nobody@example.com>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.com.html'], 'temporary'],
  ['policyd-spf', ['550 5.7.23 <nobody@example.com>: Recipient address rejected: Message rejected due to: SPF fail - not authorized. Please see http://www.openspf.net/Why?s=mfrom;id=verify@probe.example;ip=203.0.113.9;r=<UNKNOWN>'], 'policy_block'],
  ['postscreen', ['550 5.3.2 Service currently unavailable'], 'policy_block'],
  ['Postfix connection rate', ['421 4.7.0 mx.example.com Error: too many connections from 203.0.113.9'], 'service_closing'],
  ['Postfix recipient limit', ['452 4.5.3 Error: too many recipients'], 'too_many_recipients'],
  ['Postfix lookup failure', ['451 4.3.0 <nobody@example.com>: Temporary lookup failure'], 'temporary'],
  // Exim / cPanel
  ['Exim relay', ['550 relay not permitted'], 'policy_block'],
  ['Exim recipient verify', ['550 Unrouteable address'], 'mailbox_not_found'],
  ['Exim sender callout', ['550-Verification failed for <verify@probe.example>', '550-Called:   192.0.2.25', '550-Sent:     RCPT TO:<verify@probe.example>', '550-Response: 550 5.1.1 <verify@probe.example>: Recipient address rejected: User unknown in virtual mailbox table', '550 Sender verify failed'], 'policy_block'],
  ['Exim recipient callout', ['550-Callout verification failed:', '550 550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in virtual mailbox table'], 'mailbox_not_found'],
  ['Exim dnslists', ['550 Rejected because 203.0.113.9 is in a black list at zen.spamhaus.org'], 'policy_block'],
  ['Exim temp', ['451 Temporary local problem - please try later'], 'temporary'],
  ['cPanel unknown', ['550 No Such User Here'], 'mailbox_not_found'],
  ['cPanel sender callout', ['550-Verification failed for <verify@probe.example>', '550-The mail server could not deliver mail to verify@probe.example.  The account or domain may not exist, they may be blacklisted, or missing the proper dns entries.', '550 Sender verify failed'], 'policy_block'],
  ['cPanel relay', ['550-Please turn on SMTP Authentication in your mail client. (probe.example)', '550-[203.0.113.9]:41234 is not permitted to relay through this server without', '550 authentication.'], 'policy_block'],
  ['cPanel HELO', ['550 Access denied - Invalid HELO name (See RFC2821 4.1.1.1)'], 'policy_block'],
  // qmail / vpopmail / chkuser
  ['qmail rcpthosts', ["553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)"], 'policy_block'],
  ['qmail unknown', ['550 sorry, no mailbox here by that name. (#5.1.1)'], 'mailbox_not_found'],
  ['chkuser unknown', ['511 sorry, no mailbox here by that name (#5.1.1 - chkuser)'], 'mailbox_not_found'],
  ['chkuser too many wrong rcpts', ['571 sorry, you are violating our security policies (#5.1.1 - chkuser)'], 'policy_block'],
  ['chkuser sender MX', ["511 sorry, can't find a valid MX for sender domain (#5.1.1 - chkuser)"], 'policy_block'],
  ['qmail badmailfrom', ['553 sorry, your envelope sender is in my badmailfrom list (#5.7.1)'], 'policy_block'],
  // Sendmail
  ['Sendmail unknown', ['550 5.1.1 <nobody@example.com>... User unknown'], 'mailbox_not_found'],
  ['Sendmail relaying denied', ['550 5.7.1 <nobody@example.com>... Relaying denied. IP name lookup failed [203.0.113.9]'], 'policy_block'],
  ['Sendmail sender domain', ['553 5.1.8 <verify@probe.example>... Domain of sender address verify@probe.example does not exist'], 'policy_block'],
  ['Sendmail disk', ['452 4.4.5 Insufficient disk space; try again later'], 'temporary'],
  ['Sendmail ratecontrol', ['421 4.3.2 Connection rate limit exceeded.'], 'service_closing'],
  ['Sendmail access db', ['550 5.7.1 <nobody@example.com>... Access denied'], 'policy_block'],
  // Gateways
  ['Mimecast invalid recipient', ['550 Invalid Recipient - https://community.mimecast.com/docs/DOC-1369#550 [AbCdEfGhIjKlMnOpQ.uk1]'], 'mailbox_not_found'],
  ['Mimecast envelope blocked', ['550 Administrative prohibition - envelope blocked - https://community.mimecast.com/docs/DOC-1369#550 [AbCdEfGhIjKlMnOpQ.uk1]'], 'policy_block'],
  ['Mimecast IP reputation', ['550 Local CT IP Reputation - (reject) https://community.mimecast.com/docs/DOC-1369#550 [AbCdEfGhIjKlMnOpQ.uk1]'], 'policy_block'],
  ['Mimecast greylist', ['451 Internal resource temporarily unavailable - https://community.mimecast.com/docs/DOC-1369#451'], 'temporary'],
  ['Proofpoint block', ['554 Blocked - see https://ipcheck.proofpoint.com/?ip=203.0.113.9'], 'policy_block'],
  ['Proofpoint unknown', ['550 5.1.1 User Unknown'], 'mailbox_not_found'],
  ['Barracuda unknown', ['550 No such user (nobody@example.com)'], 'mailbox_not_found'],
  ['Barracuda cuda_nsu', ['550 cuda_nsu 5.1.1 <nobody@example.com> Recipient address rejected: User unknown'], 'mailbox_not_found'],
  ['Barracuda reputation', ['554 Service unavailable; Client host [203.0.113.9] blocked using Barracuda Reputation; http://www.barracudanetworks.com/reputation/?pr=1&ip=203.0.113.9'], 'policy_block'],
  ['Barracuda blocked', ['550 Blocked'], 'policy_block'],
  ['Cisco ESA LDAP accept', ['550 #5.1.0 Address rejected.'], 'mailbox_not_found'],
  ['Cisco ESA SBRS', ["554 Your access to this mail system has been rejected due to the sending MTA's poor reputation. If you believe that this failure is in error, please contact the intended recipient via alternate means."], 'policy_block'],
  ['Cisco ESA rate', ['452 Too many recipients received this hour'], 'too_many_recipients'],
  // GMX / web.de, Mail.ru, Yandex, QQ/163, Zoho, Orange, others
  ['GMX unknown', ['550 Requested action not taken: mailbox unavailable'], 'mailbox_not_found'],
  ['GMX rDNS', ['554-gmx.net (mxgmx017) Nemesis ESMTP Service not available', '554-No SMTP service', '554-Bad DNS PTR resource record.', '554 For explanation visit http://postmaster.gmx.com/en/error-messages?ip=203.0.113.9&c=rdns'], 'policy_block'],
  ['web.de policy', ['554-Transaction failed', '554-Reject due to policy restrictions.', '554 For explanation visit https://web.de/email/senderguidelines?ip=203.0.113.9&c=hi'], 'policy_block'],
  ['Mail.ru unknown', ['550 Message was not accepted -- invalid mailbox.  Local mailbox nobody@mail.ru is unavailable: user not found'], 'mailbox_not_found'],
  ['Mail.ru disabled', ['550 Message was not accepted -- invalid mailbox.  Local mailbox nobody@mail.ru is unavailable: account is disabled'], 'mailbox_disabled'],
  ['Yandex temp', ['451 4.7.1 Sorry, the service is currently unavailable. Please come back later.'], 'temporary'],
  ['QQ unknown', ['550 Mailbox not found. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728'], 'mailbox_not_found'],
  ['163 unknown', ['550 User not found: nobody@163.com'], 'mailbox_not_found'],
  ['163 suspended', ['550 User suspended: nobody@163.com'], 'mailbox_disabled'],
  ['163 null sender', ['553 Requested action not taken: NULL sender is not allowed'], 'policy_block'],
  ['Zoho unknown', ['550 5.1.1 User does not exist - nobody@zoho.com'], 'mailbox_not_found'],
  ['Zoho relaying', ['553 Relaying disallowed. Invalid Domain - example.com'], 'policy_block'],
  ['Dovecot LMTP unknown', ["550 5.1.1 <nobody@example.com> User doesn't exist: nobody@example.com"], 'mailbox_not_found'],
  ['Dovecot LMTP quota', ['552 5.2.2 <user@example.com> Quota exceeded (mailbox for user is full)'], 'mailbox_full'],
  ['Dovecot LMTP temp', ['451 4.3.0 <user@example.com> Temporary internal error'], 'temporary'],
  ['Orange unknown', ['550 5.1.1 Adresse d au moins un destinataire invalide. Invalid recipient. OFR_416 [416]'], 'mailbox_not_found'],
  ['Orange over quota', ['552 5.1.1 Boite du destinataire pleine. Recipient overquota. OFR_417 [417]'], 'mailbox_full'],
  ['Orange blocked', ['550 5.2.0 Mail rejete. Mail rejected. ofr_506 [506]'], 'policy_block'],
  ['Orange Cloudmark', ['550 mwinf5c14 ME Adresse IP source bloquee pour incident de spam. Client host blocked for spamming issues. OFR006_102 Ref http://csi.cloudmark.com/reset-request/?ip=203.0.113.9 [102]'], 'policy_block'],
  ['laposte SPF', ['550 5.5.0 SPF: 203.0.113.9 is not allowed to send mail. LPN004_401'], 'policy_block'],
  ['AT&T DNSBL', ['553 5.3.0 flpd575 DNSBL:RBL 521< 203.0.113.9 >_is_blocked.For assistance forward this error to abuse_rbl@abuse-att.net'], 'policy_block'],
  ['Comcast DNSBL', ['554 resimta-po-12v.sys.comcast.net resimta-po-12v.sys.comcast.net 203.0.113.9 found on one or more DNSBLs, see http://postmaster.comcast.net/smtp-error-codes.php#BL000001'], 'policy_block'],
  ['T-Online', ['554 IP=203.0.113.9 - A problem occurred. (Ask your postmaster for help or to contact tosa@rx.t-online.de to clarify.) (BL)'], 'policy_block'],
  ['ImprovMX PTR', ['550 5.7.25 IP name lookup failed. No valid PTR record found for the given IP address. - ImprovMX v2024.06.06'], 'policy_block'],
];

// ---- Servers that answer in their own language (German, French, Spanish, Italian, Portuguese, Dutch,
// Polish, Russian). A mailbox code (5.1.1, 5.1.0) whose text says we were blocked, access was denied,
// a policy refused, or our sender is the problem says nothing about the mailbox; a bare 550 whose
// text names an unknown user says what its English twin says.
const otherLanguages: Case[] = [
  ['German: our IP blocked under 5.1.1', ['550 5.1.1 Ihre IP-Adresse ist gesperrt'], 'policy_block'],
  ['German: access denied under 5.1.1', ['550 5.1.1 Zugriff verweigert'], 'policy_block'],
  ['German: our sender invalid under 5.1.0', ['550 5.1.0 Absender ungültig'], 'policy_block'],
  ['German: our sender, written without the umlaut', ['550 5.1.0 <verify@probe.example>: Absender ungueltig'], 'policy_block'],
  ['German: refused by policy', ['550 5.1.1 Abgelehnt aufgrund einer Richtlinie'], 'policy_block'],
  ['French: access refused under 5.1.1', ['550 5.1.1 Accès refusé'], 'policy_block'],
  ['French: sender refused', ['550 5.1.0 Expéditeur refusé'], 'policy_block'],
  ['French: blocked, written without accents', ['550 5.1.1 Adresse IP bloquee'], 'policy_block'],
  ['Spanish: blocked', ['550 5.1.1 Su dirección IP ha sido bloqueada'], 'policy_block'],
  ['Spanish: sender refused', ['550 5.1.0 Remitente rechazado'], 'policy_block'],
  ['Spanish: access denied', ['550 5.1.1 Acceso denegado'], 'policy_block'],
  ['Italian: access denied', ['550 5.1.1 Accesso negato'], 'policy_block'],
  ['Italian: sender not allowed', ['550 5.1.0 Mittente non autorizzato'], 'policy_block'],
  ['Portuguese: blocked', ['550 5.1.1 Endereço IP bloqueado'], 'policy_block'],
  ['Portuguese: sender', ['550 5.1.0 Remetente inválido'], 'policy_block'],
  ['Dutch: blocked', ['550 5.1.1 Uw IP-adres is geblokkeerd'], 'policy_block'],
  ['Polish: blocked', ['550 5.1.1 Adres IP zablokowany'], 'policy_block'],
  ['Russian: blocked', ['550 5.1.1 Ваш IP-адрес заблокирован'], 'policy_block'],
  ['Russian: sender refused', ['550 5.1.0 Отправитель отклонён'], 'policy_block'],
  ['German: unknown user, bare 550', ['550 Benutzer unbekannt'], 'mailbox_not_found'],
  ['German: unknown recipient, bare 550', ['550 Empfänger unbekannt: <ghost@example.de>'], 'mailbox_not_found'],
  ['German: mailbox does not exist, bare 550', ['550 Postfach existiert nicht'], 'mailbox_not_found'],
  ['French: unknown user, bare 550', ['550 Utilisateur inconnu'], 'mailbox_not_found'],
  ['French: unknown recipient, bare 550', ['550 Destinataire inconnu'], 'mailbox_not_found'],
  ['Spanish: unknown user, bare 550', ['550 Usuario desconocido'], 'mailbox_not_found'],
  ['Spanish: mailbox does not exist, bare 550', ['550 El buzón no existe'], 'mailbox_not_found'],
  ['Italian: unknown user, bare 550', ['550 Utente sconosciuto'], 'mailbox_not_found'],
  ['Italian: recipient does not exist, bare 550', ['550 Destinatario inesistente'], 'mailbox_not_found'],
  ['Portuguese: unknown user, bare 550', ['550 Usuário desconhecido'], 'mailbox_not_found'],
  ['Dutch: unknown user, bare 550', ['550 Onbekende gebruiker'], 'mailbox_not_found'],
  ['Polish: user does not exist, bare 550', ['550 Użytkownik nie istnieje'], 'mailbox_not_found'],
  ['Russian: user not found, bare 550', ['550 Пользователь не найден'], 'mailbox_not_found'],
  ['German: unknown user with 5.1.1 (as before)', ['550 5.1.1 Benutzer unbekannt'], 'mailbox_not_found'],
  // A sender named in another language never makes a missing mailbox of the recipient.
  ['German: sender unknown, bare 550', ['550 Absender unbekannt'], 'policy_block'],
  ['Spanish: sender does not exist, bare 550', ['550 El remitente no existe'], 'policy_block'],
];

const fmt = ([src, lines]: Case) => `${src}: ${lines.join(' | ')}`;

const groups: [string, Case[]][] = [
  ['replies about us, never a missing mailbox', falseInvalid],
  ['clear unknown users', missedUnknown],
  ['a temporary server condition', tempMadeFinal],
  ['real-world replies', passing],
  ['replies in other languages', otherLanguages],
];

describe.each(groups)('%s', (_group, cases) => {
  it.each(cases.map((c) => [fmt(c), c] as const))('%s', (_n, [, lines, expected]) => {
    expect(run(lines)).toBe(expected);
  });
});

it('holds at least 100 replies', () => {
  expect(groups.reduce((n, [, cases]) => n + cases.length, 0)).toBeGreaterThanOrEqual(100);
});
