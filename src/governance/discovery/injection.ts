import { normalize } from '../../classics/text.js';

/**
 * Prompt-injection check for text that enters discovery (signals, web snippets, pack manifests).
 * It flags and never blocks: the caller gets findings and decides. Five families are checked:
 * instruction overrides and role/system markers (Chinese and English), invisible and control
 * characters, encoded payloads that decode to an override or a marker, and markup that hides text.
 *
 * Classical texts are full of imperatives ("绝学无忧", "do not impose on others..."), so no rule
 * fires on an imperative alone: an override needs an instruction-like object ("previous
 * instructions", "系统指令") or a claim on the reader's role ("you are now...", "扮演...不受限制"),
 * and markers are chat-format tokens, not words. The evaluation set in test/eval/injection-set.json
 * and every passage of the served packs keep this honest.
 */

export type InjectionCategory = 'instruction_override' | 'role_marker' | 'invisible_characters' | 'encoded_payload' | 'hidden_markup';

export interface InjectionFinding {
  category: InjectionCategory;
  /** Which rule fired, e.g. `override.en.ignore-previous`. */
  rule: string;
  /** A short, printable excerpt of what matched (invisible characters shown as U+XXXX). */
  excerpt: string;
  /** For encoded payloads: how the text was encoded. */
  encoding?: 'base64' | 'hex' | 'percent' | 'html-entities' | 'escapes';
}

export interface InjectionResult {
  flagged: boolean;
  /** Always false: the check flags, it never blocks or changes content. */
  blocked: false;
  categories: InjectionCategory[];
  findings: InjectionFinding[];
  checkedCharacters: number;
}

interface TextRule {
  id: string;
  category: 'instruction_override' | 'role_marker';
  pattern: RegExp;
}

/* Word lists shared by the English rules. */
const EN_DISMISS = String.raw`(?:pay no (?:attention|heed) to|take no notice of|never mind|ignore|ignoring|disregard|disregarding|forget|forgetting|override|overrule|bypass|abandon|discard|drop|set aside|put aside|skip|stop following|do not (?:obey|follow)|don't (?:obey|follow)|never (?:obey|follow))`;
const EN_PRIOR = String.raw`(?:previous|prior|preceding|earlier|above|foregoing|original|initial|old|existing|your|the system'?s?|my operator'?s|your operator'?s)`;
const EN_STRONG_OBJECT = String.raw`(?:instructions?|prompts?|system prompt|directives?|programming|pre-?prompt|guidelines|guidance|commands?)`;
const EN_WEAK_OBJECT = String.raw`(?:rules|directions|constraints|restrictions|context|policies|policy|training|safeguards|settings you were given)`;
const GAP = String.raw`[^.!?\n]{0,40}?`;

/* Chinese: the same families. Text is simplified and lower-cased before matching. */
const ZH_DISMISS = String.raw`(?:忽略|忽视|无视|无需理会|不要理会|不用理会|别理会|别管|跳过|抛开|撇开|忘记|忘掉|丢弃|放弃|推翻|覆盖|绕开|放下|搁置|抛弃|不管)`;
const ZH_PRIOR = String.raw`(?:之前|此前|先前|以前|以上|上面|上述|前面|前述|刚才|原来|原有|原先|原本|你的|系统|默认)`;
const ZH_STRONG_OBJECT = String.raw`(?:指令|指示|提示词|系统提示|设定|预设|人设|系统消息)`;
const ZH_WEAK_OBJECT = String.raw`(?:规则|规定|约束|限制|要求|命令|说明|内容|对话|上下文)`;

const RULES: TextRule[] = [
  // English instruction overrides
  { id: 'override.en.dismiss-instructions', category: 'instruction_override', pattern: new RegExp(String.raw`\b${EN_DISMISS}\b${GAP}\b(?:all|any|every|${EN_PRIOR})\b${GAP}\b${EN_STRONG_OBJECT}\b`) },
  { id: 'override.en.dismiss-rules', category: 'instruction_override', pattern: new RegExp(String.raw`\b${EN_DISMISS}\b${GAP}\b${EN_PRIOR}\b${GAP}\b${EN_WEAK_OBJECT}\b`) },
  { id: 'override.en.dismiss-safety', category: 'instruction_override', pattern: new RegExp(String.raw`\b${EN_DISMISS}\b (?:the |your |any |all |all of the |every )?(?:gate|filters?|safety (?:rules|checks?|filters?|guidelines|settings)|safeguards|guardrails|content polic(?:y|ies)|moderation|injection check|restrictions|censorship)\b`) },
  { id: 'override.en.dismiss-everything', category: 'instruction_override', pattern: /\b(?:ignore|disregard|forget)\b (?:everything|all|anything)(?: (?:that )?(?:you (?:were|have been|'ve been) (?:told|given|taught|instructed)|above|before this|said before|previously))\b/ },
  { id: 'override.en.ignore-the-above', category: 'instruction_override', pattern: /\b(?:ignore|disregard|forget) (?:the|everything|all of the|all) (?:above|foregoing|preceding)\b/ },
  { id: 'override.en.rules-you-were-given', category: 'instruction_override', pattern: /\b(?:obey|follow|heed)\b[^.!?\n]{0,20}\b(?:rules|instructions|guidelines) you (?:were|have been) given\b/ },
  { id: 'override.en.instructions-void', category: 'instruction_override', pattern: /\b(?:previous|prior|above|earlier|original|old|all|your|existing|current) (?:instructions?|prompts?|rules|directives?|guidance|guidelines|constraints|restrictions|settings) (?:were|was|are|is|have been|has been|are now|is now) (?:just |all |hereby |now )?(?:a test|fake|void|null|cancel+ed|outdated|obsolete|wrong|no longer (?:valid|apply|applicable|in effect)|revoked|lifted|suspended|overridden|superseded|replaced|disabled)\b|\b(?:everything|all|anything)(?: written)? (?:above|before)(?: this(?: line| point| message)?)? (?:is|was) (?:now )?(?:obsolete|void|cancel+ed|invalid|irrelevant|a test|fake|null)\b/ },
  { id: 'override.en.precedence', category: 'instruction_override', pattern: /\b(?:takes?|has|have) (?:precedence|priority) over (?:any|all|every|your|the|previous|other)\b[^.!?\n]{0,20}\b(?:instructions?|rules|prompts?|guidelines|directives?)\b|\bsystem[- ]level (?:commands?|instructions?|directives?|override)\b/ },
  { id: 'override.en.authority-claim', category: 'instruction_override', pattern: /\b(?:this is|i am|i'm|we are|we're) your (?:developer|developers|creator|creators|admin|administrator|operator|owner|maker|programmer|system administrator)\b|\bdear (?:ai|model|assistant|llm|chatbot|agent|language model)\b/ },
  { id: 'override.en.role-switch', category: 'instruction_override', pattern: /\bstop (?:being|acting as|playing) (?:an?|the|your)\b[^.!?\n]{0,40}\b(?:and|,|then)\s*(?:become|be|act as|turn into|start)\b|\byou (?:now have|no longer have|have no more|will have no|will now have no) (?:rules|restrictions|limits|filters|guidelines|content policy|boundaries|guardrails)\b|\byou have no (?:rules|restrictions|limits|filters|guidelines|content policy|boundaries|guardrails) (?:at all|anymore|any more|whatsoever|now)\b/ },
  { id: 'override.en.reveal-your-instructions', category: 'instruction_override', pattern: /\b(?:output|print|show|reveal|repeat|tell me|give me|dump|share|copy|paste|write out|recite|display|leak)\b[^.!?\n]{0,30}\byour (?:instructions|system prompt|prompt|configuration|directives|guidelines|initial message|hidden rules)\b/ },
  { id: 'override.en.without-policy', category: 'instruction_override', pattern: /\b(?:act|respond|answer|operate|behave|reply|continue|proceed|write|speak)\b[^.!?\n]{0,20}\bwithout (?:any |your |the |a )?(?:content polic(?:y|ies)|restrictions|rules|limits|filters|guidelines|safety (?:rules|guidelines|filters?)|censorship|moderation|guardrails)\b/ },
  { id: 'override.en.reveal-config', category: 'instruction_override', pattern: /\b(?:print|output|show|reveal|list|repeat|tell me|dump|recite|give me)\b[^.!?\n]{0,30}\b(?:configuration|config|instructions?|rules?|prompts?|guidelines|directives?|first message|initial message)\b[^.!?\n]{0,10}\byou (?:were|are|have been) (?:started|initiali[sz]ed|configured|given|following|running|told|provided)(?: with)?\b|\b(?:print|output|repeat|recite|show)\b[^.!?\n]{0,30}\b(?:rules?|instructions?|prompts?)\b[^.!?\n]{0,30}\bword for word\b|\brepeat (?:your|the) (?:first|initial|original) (?:message|instructions?|prompt)\b/ },
  { id: 'override.en.formal-claim', category: 'instruction_override', pattern: /\b(?:record|mark|treat|register|cite|classify|label|store|list|flag)\b(?: (?:it|this|them|these|the (?:page|text|snippet|source|content|article|result|entry)|this (?:page|text|snippet|source|content|article|result|entry)))? as (?:canonical|canon|formal(?: evidence)?|trusted|verified|authoritative|official|t0|approved|qualified|peer[- ]reviewed)\b|\b(?:cite|treat|use) (?:it|this|this page|this text|this source) as t[0-2]\b/ },
  { id: 'override.en.only-rule', category: 'instruction_override', pattern: /\byour (?:only|sole|one|new|first|real) (?:rule|task|job|purpose|goal|instruction|directive) (?:is|will be|now is|from now on is)\b|\b(?:cancel|abort|stop|abandon|drop) (?:your|the) (?:current|previous|original|assigned) (?:task|instructions?|job|assignment|goal)\b/ },
  { id: 'override.en.suppose-no-rules', category: 'instruction_override', pattern: /\bas if (?:there (?:are|were) no|you (?:had|have) no) (?:content |safety )?(?:rules|restrictions|filters|policies|guidelines|limits)\b|\b(?:pretend|imagine|assume|suppose|act as if)\b[^.!?\n]{0,30}\b(?:rules|instructions|restrictions|guidelines|filters|policy|policies)\b[^.!?\n]{0,15}\b(?:don't|do not|didn't|never|no longer) (?:exist|apply|matter|count)\b/ },
  { id: 'override.en.freed', category: 'instruction_override', pattern: /\byou (?:have been|are|were|are now|have now been) (?:freed|liberated|released|unshackled|unchained) from\b|\bdo anything now\b|\b(?:i am|i'm|this is) (?:the )?(?:system|root)(?:[.!,:]|$)|\bobey (?:me|my|now|immediately)\b|(?:^|[.!] )obey[.!]?$/ },
  { id: 'override.en.trust-level', category: 'instruction_override', pattern: /\bset (?:the |its |this (?:source|page)'?s? |the source'?s? )?(?:trust(?: level)?|credibility|reliability|trust score|confidence) (?:level )?to (?:max(?:imum)?|highest|full|100|t0|verified)\b|\b(?:higher|greater|top) priority than (?:your|the|any|all) (?:system|instructions?|rules|prompt)\b|\byou (?:must |will |shall |should |now )?unconditionally (?:obey|comply|execute|follow)\b/ },
  { id: 'override.en.answer-that', category: 'instruction_override', pattern: /\bif (?:you are |you're )?asked\b[^.!?\n]{0,40}\b(?:always|only) (?:answer|say|reply|respond|claim|state) that (?:it|this|the source|the page)\b|\bwhen (?:you )?(?:summari[sz]|translat|process|index)\w*\b[^.!?\n]{0,40}\b(?:insert|add|include|append|say|state|claim)\b[^.!?\n]{0,20}\b(?:sentence|line|claim|statement)\b/ },
  { id: 'override.en.line-command', category: 'instruction_override', pattern: /(?:^|\n)[ \t]*(?:override|sudo|system override|admin override)[ \t]*[:：]/ },
  { id: 'override.en.no-more-rules', category: 'instruction_override', pattern: /\bno more (?:rules|filters|restrictions|limits|guidelines|guardrails|censorship|content polic(?:y|ies))\b|\b(?:you are|you're) (?:now )?(?:an? )?(?:free|liberated|unchained|unbound) (?:ai|model|assistant|chatbot|llm)\b/ },
  { id: 'override.en.system-directive', category: 'instruction_override', pattern: /\b(?:trusted|new|official|following is an?|this is an?|important|urgent|priority) system (?:directive|instruction|command|message|override|notice)s?\b|\bthis message is from (?:the|your) (?:system|administrator|admin|developer|operator)s?\b/ },
  { id: 'override.en.privileges', category: 'instruction_override', pattern: /\b(?:has|have|with|granted?|gives?) (?:admin|administrator|root|elevated|superuser|sudo) (?:privileges|rights|access|permissions)\b|\b(?:grant|approve|accept|obey|comply with|execute|fulfil+) (?:every|all|any) (?:requests?|commands?|instructions?) without (?:question|review|checks?|hesitation)\b/ },
  { id: 'override.en.new-instructions', category: 'instruction_override', pattern: /\b(?:(?:new|real|actual|true|updated|revised|secret) (?:instructions?|directives?|system prompt|rules?)(?: (?:are|is))?\s*[:：]|(?:the )?(?:real|actual|true) (?:instructions?|task) (?:are|is)\b|your (?:new|real|actual|true) (?:task|instructions?|role|job|purpose|goal) (?:is|are|will be)\b)/ },
  { id: 'override.en.regardless', category: 'instruction_override', pattern: /\b(?:regardless of|in spite of|despite|contrary to) (?:your|any|all|the|previous|prior|earlier) (?:previous |prior |earlier |system )?(?:instructions?|guidelines|rules|programming|system prompt)\b/ },
  { id: 'override.en.priority', category: 'instruction_override', pattern: /\b(?:highest|top|maximum|overriding) priority (?:instructions?|commands?|directives?|override)\b|\bsystem override\b/ },
  { id: 'override.en.role-now', category: 'instruction_override', pattern: /\byou(?: are|'re)(?: now| from now on| no longer)\b[^.!?\n]{0,40}\b(?:dan|unrestricted|unfiltered|uncensored|jailbroken|evil|root|admin|administrator|the system|system administrator|no (?:longer )?(?:bound|restricted|limited)|without (?:any )?(?:restrictions|rules|limits|filters)|in (?:developer|god|jailbreak|dan|unrestricted|sudo) mode)\b/ },
  { id: 'override.en.unfiltered-self', category: 'instruction_override', pattern: /\byou(?: are|'re| will be| shall be| will now be)(?: now)? (?:an?|the)? ?(?:unfiltered|unrestricted|uncensored|jailbroken|ungoverned|unaligned|lawless)\b|\byou will now (?:respond|answer|act|behave|reply) as (?:an?|the) (?:unfiltered|unrestricted|uncensored|jailbroken)\b/ },
  { id: 'override.en.pretend', category: 'instruction_override', pattern: /\b(?:pretend|imagine|act|behave|role-?play|respond|answer)(?: that)?(?: you are| you're| to be| as| like)\b[^.!?\n]{0,40}\b(?:unrestricted|unfiltered|uncensored|jailbroken|dan|evil|no (?:restrictions|rules|limits|filters|guidelines|content policy)|without (?:any )?(?:restrictions|rules|limits|filters|guidelines|a content policy)|the system administrator|system administrator)\b/ },
  { id: 'override.en.mode', category: 'instruction_override', pattern: /\b(?:jailbreak|jailbroken|god|dan|unrestricted|sudo) mode\b|\b(?:you are|you're|now) in developer mode\b|\bdeveloper mode\b[^.!?\n]{0,60}\b(?:ignores?|bypass(?:es)?|no (?:rules|restrictions|limits)|safety|guidelines|content policy|filters?)\b/ },
  { id: 'override.en.from-now-on', category: 'instruction_override', pattern: /\bfrom now on,? you (?:are|will|must|shall|should|respond|answer|act)\b[^.!?\n]{0,60}\b(?:dan|unrestricted|without (?:any )?restrictions|no restrictions|system|administrator|admin|ignore|obey|approve|only me|grant)\b/ },
  { id: 'override.en.reveal-prompt', category: 'instruction_override', pattern: /\b(?:reveal|show|print|output|display|repeat|tell me|give me|leak|dump|expose|share|write out|recite)\b[^.!?\n]{0,30}\b(?:your|the|its) (?:full |entire |complete |exact )?(?:system prompt|system message|hidden (?:instructions?|prompt)|initial (?:instructions?|prompt)|original (?:instructions?|prompt)|secret (?:instructions?|prompt)|pre-?prompt|instructions verbatim)\b|\b(?:reveal|print|show|output)\b[^.!?\n]{0,20}\bhidden prompt\b/ },
  { id: 'override.en.repeat-above', category: 'instruction_override', pattern: /\brepeat (?:the|all the|all of the)? ?(?:text|words|lines|content|everything) (?:above|before this)\b/ },
  { id: 'override.en.bypass-safety', category: 'instruction_override', pattern: /\b(?:bypass|circumvent|disable|turn off|get around|evade|switch off|deactivate)\b[^.!?\n]{0,20}\b(?:the |your |all |any |its )?(?:safety|content|security|moderation|injection|prompt)? ?(?:filters?|checks?|guardrails?|safeguards?|censorship|moderation|gate|content policy|safety (?:rules|guidelines|checks|filter|settings))\b/ },
  { id: 'override.en.skip-review', category: 'instruction_override', pattern: /\b(?:approve|accept|verify|qualify|publish|merge|mark|promote|trust)\b[^.!?\n]{0,50}\b(?:without|skip(?:ping)?|bypass(?:ing)?|no need for|with no)\b (?:any |the )?(?:human |manual |editorial )?(?:review|approval|verification|oversight|checks?)\b/ },
  { id: 'override.en.address-ai', category: 'instruction_override', pattern: /\b(?:note|message|instructions?|attention|important|memo)\s*(?:to|for)\s*(?:all |any )?(?:the )?(?:ai|llm|model|assistant|agent|chatbot|language model|gpt)s?\b|\b(?:ai|llm) (?:agents?|models?|assistants?|systems?) (?:reading|processing|parsing|summari[sz]ing|crawling) this\b|\bif you are an? (?:ai|llm|large language model|language model|ai (?:model|assistant|agent)|chatbot)\b/ },
  { id: 'override.en.set-aside-guidance', category: 'instruction_override', pattern: /\b(?:set|put|push) aside\b[^.!?\n]{0,30}\b(?:guidance|instructions?|rules|guidelines)\b[^.!?\n]{0,30}\b(?:given|received|told)\b/ },

  // Chinese instruction overrides
  { id: 'override.zh.dismiss-instructions', category: 'instruction_override', pattern: new RegExp(`${ZH_DISMISS}[^。！？\\n]{0,12}?${ZH_STRONG_OBJECT}`) },
  { id: 'override.zh.dismiss-rules', category: 'instruction_override', pattern: new RegExp(`${ZH_DISMISS}[^。！？\\n]{0,4}?${ZH_PRIOR}[^。！？\\n]{0,8}?${ZH_WEAK_OBJECT}`) },
  { id: 'override.zh.disobey', category: 'instruction_override', pattern: new RegExp(`(?:不要|不必|别|无需|不用|不再)(?:再)?(?:遵守|遵循|服从|听从|执行|受)[^。！？\\n]{0,6}?(?:${ZH_STRONG_OBJECT}|${ZH_PRIOR}[^。！？\\n]{0,4}?${ZH_WEAK_OBJECT})`) },
  { id: 'override.zh.void', category: 'instruction_override', pattern: /(?:以上|上面|上述|之前|前面|此前|先前|原来|原有|原先|你的)的?(?:所有|全部|一切)?的?(?:内容|指令|规则|设定|指示|限制|要求|约束)(?:全部|均|都|一律)?(?:作废|无效|不算|不再有效|失效|不再适用|不适用|取消|解除|已取消|已解除)/ },
  { id: 'override.zh.precedence', category: 'instruction_override', pattern: /优先于(?:任何|所有|一切|其他|之前|你的)?[^。！？\n]{0,6}?(?:指令|命令|规则|设定|指示|要求)|系统级(?:的)?(?:命令|指令|指示)/ },
  { id: 'override.zh.authority-claim', category: 'instruction_override', pattern: /(?:我是|我们是|这是)你的(?:开发者|管理员|创造者|主人|作者|运营者|程序员|设计者)/ },
  { id: 'override.zh.unfiltered-self', category: 'instruction_override', pattern: /你是(?:一个|一名|一位)?[^。！？\n]{0,10}?(?:不受|没有|无|不再受)(?:任何)?(?:审查|限制|约束|规则)的?(?:模型|ai|助手|机器人|人工智能)|你(?:不再是|别再当|停止扮演)[^。！？\n]{0,20}?(?:而是|改为|变成|成为|现在是)/ },
  { id: 'override.zh.formal-claim', category: 'instruction_override', pattern: /(?:标记|标为|标注|视为|认定|记录|列为|当作|作为|当成)为?(?:正式证据|已核实|已审核|已验证|可信来源|已批准|权威来源|t0)/ },
  { id: 'override.zh.reveal-verbatim', category: 'instruction_override', pattern: /你(?:收到|得到|接收到|被设定|被赋予)的[^。！？\n]{0,12}?(?:原样|原封不动|逐字|一字不差|一字不漏)|(?:原样|原封不动|逐字|一字不差|一字不漏)地?(?:复述|输出|告诉我|重复|打印)[^。！？\n]{0,6}?(?:你的|系统|指令|设定|消息|提示)|(?:告诉我|输出|显示|泄露|透露|打印)[^。！？\n]{0,6}?(?:你的系统设定|系统设定|你的设定|你的人设|你的配置)/ },
  { id: 'override.zh.suppose-no-rules', category: 'instruction_override', pattern: /(?:假设|假如|如果|想象|假装)你?(?:没有|不受|无)(?:任何)?(?:规则|限制|约束|审查)|你(?:必须|要|应该|需要|得|将)?无条件地?(?:执行|服从|遵守|照做)|优先级高于(?:你的)?(?:系统|任何|所有|之前|原有)|(?:修改|更改|重写|删除|覆盖|清除)你的(?:规则|设定|指令|限制|配置|人设)/ },
  { id: 'override.zh.trust-level', category: 'instruction_override', pattern: /(?:可信度|信任度|置信度|可信等级|信任等级|可信级别)(?:设为|设置为|调到|改为|提高到|标为|调整为)(?:最高|满分|t0|100)|(?:测试|紧急|特别|临时|隐藏)(?:指令|命令)[:：]/ },
  { id: 'override.zh.from-admin', category: 'instruction_override', pattern: /来自(?:系统|管理员|系统管理员|开发者|官方)[^。！？\n]{0,10}?(?:执行|服从|照做)|(?:上面|之前|以上|前面)(?:说的|的话|的内容|所说)[^。！？\n]{0,6}?(?:当作没说|不算数|作废|都不算)|(?:现在|从现在起|以后|接下来)(?:只|就)?(?:听我的|服从我|听从我的?)/ },
  { id: 'override.zh.new-instructions', category: 'instruction_override', pattern: /(?:新的?|真正的?|最新的?|更新后的?)(?:指令|指示|任务|系统提示)\s*[:：]|你的(?:新|真正的?)(?:任务|指令|身份|角色)(?:是|为|[:：])/ },
  { id: 'override.zh.role-now', category: 'instruction_override', pattern: /(?:你现在是|你现在已经是|从现在(?:开始|起)[，,]?你(?:是|将|要|必须|只|就是)|你不再是)[^。！？\n]{0,24}?(?:没有|不受|无|不再受)(?:任何)?(?:限制|约束|规则|审查|束缚)|(?:你现在是|从现在(?:开始|起)[，,]?你(?:是|将|要|必须|只|就是))[^。！？\n]{0,24}?(?:管理员|系统|开发者模式|越狱|dan|无条件服从|执行我的)/ },
  { id: 'override.zh.pretend', category: 'instruction_override', pattern: /(?:扮演|假装|假扮|充当|模拟|成为)(?:一个|一名|一位)?[^。！？\n]{0,15}?(?:没有|不受|无|不再受)(?:任何)?(?:限制|约束|规则|审查|束缚|道德)/ },
  { id: 'override.zh.mode', category: 'instruction_override', pattern: /(?:越狱|上帝|无限制|无约束)模式|(?:开发者|管理员|调试)模式[^。！？\n]{0,30}?(?:忽略|无视|绕过|规则|限制|指令)/ },
  { id: 'override.zh.reveal-prompt', category: 'instruction_override', pattern: /(?:输出|显示|泄露|告诉我|打印|展示|给我看|复述|重复|透露|发给我)[^。！？\n]{0,10}?(?:系统提示|系统指令|初始(?:提示|指令)|隐藏(?:的)?(?:指令|提示)|提示词|预设指令)|(?:系统提示词?|系统指令|初始提示|初始指令|提示词)[^。！？\n]{0,12}?(?:告诉我|输出|发给我|显示出来|泄露|打印出来)/ },
  { id: 'override.zh.bypass', category: 'instruction_override', pattern: /(?:绕过|规避|关闭|禁用|避开)(?:所有的?|全部的?|你的)?(?:安全|审查|审核|过滤|内容|注入|限制|规则|检查|防护|风控)/ },
  { id: 'override.zh.priority', category: 'instruction_override', pattern: /最高优先级[^。！？\n]{0,6}?(?:指令|命令|指示|执行)|优先级最高的(?:指令|命令)/ },
  { id: 'override.zh.skip-review', category: 'instruction_override', pattern: /(?:跳过|绕过|省略)(?:所有的?)?(?:人工|人类)?(?:审核|复核|审查|核实|审批|验证)|(?:无需|不需要|不用|免于?|无须)(?:人工|人类|专家)(?:审核|复核|审查|核实|审批|验证)/ },
  { id: 'override.zh.address-ai', category: 'instruction_override', pattern: /(?:给|致|对)(?:正在)?(?:阅读|读取|处理|浏览|抓取)(?:本页|本文|此页|这段|本段|这篇)[^。！？\n]{0,4}?(?:ai|人工智能|模型|助手|机器人)|如果你是(?:一个|一名)?(?:ai|人工智能|语言模型|大模型|助手|机器人)|给(?:ai|人工智能|模型|助手)的(?:说明|指示|指令|提示)/ },

  // Role and system markers (chat formats and their Chinese forms)
  { id: 'marker.chat-tokens', category: 'role_marker', pattern: /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|end|begin_of_text)\|>|\[\/?inst\]|<<\/?sys>>/ },
  { id: 'marker.line-role', category: 'role_marker', pattern: /(?:^|\n)[ \t]*(?:#{1,6}[ \t]*)?(?:system|assistant|developer|sys)(?:[ \t]+(?:message|prompt|instructions?|note|notice))?[ \t]*[:：]/ },
  { id: 'marker.line-role-note', category: 'role_marker', pattern: /(?:^|\n)[ \t]*(?:system|assistant|developer) (?:message|prompt|note|notice|instructions?)[ \t]*[:：—–-]/ },
  { id: 'marker.heading-instruction', category: 'role_marker', pattern: /(?:^|\n)[ \t]*#{1,6}[ \t]*(?:instructions?|response|system)[ \t]*[:：]?[ \t]*(?:\n|$)/ },
  { id: 'marker.transcript', category: 'role_marker', pattern: /(?:^|\n)[ \t]*(?:human|user)[ \t]*[:：][^\n]{0,500}\n(?:[^\n]{0,500}\n){0,5}?[ \t]*assistant[ \t]*[:：]/ },
  { id: 'marker.tags', category: 'role_marker', pattern: /<\/?(?:system|sys|assistant|instructions?)(?:[-_][a-z]+)?\s*>|\[(?:system|sys|admin|administrator|developer)(?: message| prompt| note| notice)?\]|\bsystem prompt (?:start|begin|end)s?\b|\b(?:begin|start|end) (?:of )?system prompt\b|(?:={3,}|-{3,}|\*{3,}|#{3,})[ \t]*system\b/ },
  { id: 'marker.zh', category: 'role_marker', pattern: /(?:^|\n)[ \t]*[【\[(（]?[ \t]*(?:系统|系统消息|系统提示|系统指令|助手|管理员指令)[ \t]*[】\])）]?[ \t]*[:：]|【(?:系统|系统消息|系统提示|系统指令|管理员|管理员指令)】|系统(?:提示|指令|消息)[ \t]*[:：]|(?:^|\n)[ \t]*(?:管理员|系统|官方|运营)(?:通知|公告|指令|命令)[ \t]*[:：]/ },
];

/* Invisible and control characters. Tab, newline and carriage return are ordinary text. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]|[\u{e0100}-\u{e01ef}]|[\u{1d173}-\u{1d17a}]/gu;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u{fe0f}/u;

const hexCode = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function invisibleFindings(text: string): InjectionFinding[] {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(INVISIBLE)) {
    const ch = match[0];
    const at = match.index!;
    if (ch === '\ufeff' && at === 0) continue; // a byte-order mark at the very start is encoding noise
    if (ch === '\u200d') {
      // A zero-width joiner between emoji builds one emoji (family, profession): ordinary text.
      const before = Array.from(text.slice(Math.max(0, at - 2), at)).pop() ?? '';
      const after = Array.from(text.slice(at + 1, at + 3))[0] ?? '';
      if (PICTOGRAPH.test(before) && PICTOGRAPH.test(after)) continue;
    }
    const key = ch.codePointAt(0)! >= 0xe0000 && ch.codePointAt(0)! <= 0xe007f ? 'tag characters (U+E0000-U+E007F)' : hexCode(ch);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => ({ category: 'invisible_characters', rule: 'invisible.characters', excerpt: `${key} x${n}` }));
}

/** Removes what a reader cannot see, so that "ign\u200bore" reads as "ignore"; tag characters become the ASCII they encode. */
function visible(text: string): { plain: string; smuggled: string } {
  let smuggled = '';
  const plain = text.replace(INVISIBLE, (ch) => {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) smuggled += String.fromCodePoint(cp - 0xe0000);
    return ch === '\n' ? ch : '';
  });
  return { plain, smuggled };
}

/** Cyrillic and Greek letters that pass for Latin ones ("Ignоre" with a Cyrillic о). */
const LOOKALIKES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ԛ: 'q', ԝ: 'w', ɡ: 'g', к: 'k', м: 'm', т: 't', в: 'b', н: 'h',
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
};
/**
 * A second reading of the text: look-alikes mapped to Latin, "I g n o r e   p r e v i o u s" and
 * "i.g.n.o.r.e" joined, "ign0re prev1ous" read as the words they spell. Works on normalized text
 * before spaces are collapsed: single spaces join letters, wider gaps part words.
 */
function despaced(normalized: string): string {
  return normalized
    .replace(/[аеорсухіјѕԁһԛԝɡкмтвнαεικνορτυχ]/g, (ch) => LOOKALIKES[ch] ?? ch)
    .replace(/\b(?:[a-z][.\-_*] ?){2,}[a-z]\b\.?/g, (run) => run.replace(/[.\-_* ]/g, ''))
    .replace(/\b(?:[a-z] ){2,}[a-z]\b/g, (run) => run.replace(/ /g, ''))
    .replace(/[ \t\u00a0\u3000]+/g, ' ')
    .replace(/\b[a-z]*[013457@$][a-z0-9@$]*\b/g, (word) =>
      /[a-z]/.test(word) ? word.replace(/0/g, 'o').replace(/1/g, 'i').replace(/3/g, 'e').replace(/4/g, 'a').replace(/5/g, 's').replace(/7/g, 't').replace(/@/g, 'a').replace(/\$/g, 's') : word,
    );
}

const excerptOf = (text: string, index: number, length: number) => {
  const raw = text.slice(Math.max(0, index - 10), Math.min(text.length, index + length + 10));
  return raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120);
};

/*
 * Paraphrases escape fixed phrases, so one more rule reads each clause for three things together:
 * it addresses the model ("you", "your", "你"), names a control ("instructions", "safety",
 * "限制", "规则") and releases it ("forget", "drop", "supersedes", "解除", "不需要遵循"). Any two
 * alone are ordinary prose; classical passages rarely address a "you" about rules and never a model.
 */
const CLAUSE_EN = {
  address: /\b(?:you|your|you're|yourself)\b/,
  control: /\b(?:instructions?|(?:system|your|the|hidden|initial|original) prompt|guardrails?|safety(?: layer| rules| policy| filters?| settings)?|guidelines|configuration|directives?|programming|content polic(?:y|ies)|restrictions|(?:safety|content|your|moderation) filters?|constraints|context window)\b/,
  release: /\b(?:ignore|disregard|forget|drop|remove|lift|bypass|override|overrides|supersedes?|superseded|no more|no longer|unlock|disable|pay no attention|set aside|cancel+ed|void|escape|break free)\b/,
};
const CLAUSE_ZH = {
  address: /你|您/,
  control: /指令|指示|规则|限制|约束|设定|安全策略|策略|过滤|审查|提示词|道德约束/,
  release: /忽略|无视|解除|不需要遵循|不必遵守|不用遵守|不需要遵守|无需遵守|不必遵循|不受|取消|去掉|移除|绕过|忘记|忘掉|当作没说|作废|摆脱|没有(?:任何)?(?:道德)?(?:限制|约束)/,
};

function clauseFindings(normalized: string): InjectionFinding[] {
  for (const clause of normalized.split(/[.!?;。！？；\n]+/)) {
    for (const [lang, lex] of [['en', CLAUSE_EN], ['zh', CLAUSE_ZH]] as const) {
      if (lex.address.test(clause) && lex.control.test(clause) && lex.release.test(clause)) {
        return [{ category: 'instruction_override', rule: `override.${lang}.release-controls`, excerpt: clause.trim().slice(0, 120) }];
      }
    }
  }
  return [];
}

function textFindings(normalized: string): InjectionFinding[] {
  const out: InjectionFinding[] = clauseFindings(normalized);
  for (const rule of RULES) {
    const match = rule.pattern.exec(normalized);
    if (match) out.push({ category: rule.category, rule: rule.id, excerpt: excerptOf(normalized, match.index, match[0].length) });
  }
  return out;
}

/** One space per run of spaces; newlines are kept for the line-start markers. */
const collapse = (normalized: string) => normalized.replace(/[ \t\u00a0\u3000]+/g, ' ');

function overridesIn(text: string): InjectionFinding[] {
  const { plain, smuggled } = visible(text);
  const normalized = normalize(plain);
  const found = textFindings(collapse(normalized));
  for (const finding of textFindings(despaced(normalized))) if (!found.some((f) => f.rule === finding.rule)) found.push(finding);
  if (smuggled) for (const finding of textFindings(collapse(normalize(smuggled)))) found.push({ ...finding, rule: `${finding.rule}.tag-smuggled` });
  return found;
}

/* Encoded payloads: decode what looks encoded and run the text rules on the result. */

const printableRatio = (s: string) => {
  if (!s.length) return 0;
  let ok = 0;
  for (const ch of s) if (/[\p{L}\p{N}\p{P}\p{Zs}\n\r\t]/u.test(ch)) ok++;
  return ok / Array.from(s).length;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });
function bytesToText(bytes: Uint8Array): string | undefined {
  try {
    const text = utf8.decode(bytes);
    return printableRatio(text) >= 0.85 ? text : undefined;
  } catch {
    return undefined;
  }
}

interface Decoded {
  encoding: NonNullable<InjectionFinding['encoding']>;
  text: string;
}

function decodings(text: string): Decoded[] {
  const out: Decoded[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const blob = match[0];
    if (/^[a-z]+$/i.test(blob) || /^[0-9a-f]+$/i.test(blob)) continue; // plain words and hex are not base64 payloads
    const decoded = bytesToText(Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    if (decoded) out.push({ encoding: 'base64', text: decoded });
  }
  for (const match of text.matchAll(/(?:[0-9a-fA-F]{2}[\s:,-]?){12,}/g)) {
    const digits = match[0].replace(/[\s:,-]/g, '');
    const decoded = bytesToText(Buffer.from(digits.slice(0, digits.length - (digits.length % 2)), 'hex'));
    if (decoded) out.push({ encoding: 'hex', text: decoded });
  }
  for (const match of text.matchAll(/(?:0x[0-9a-fA-F]{2}[\s,]*){6,}/g)) {
    const decoded = bytesToText(Buffer.from(match[0].replace(/0x|[\s,]/g, ''), 'hex'));
    if (decoded) out.push({ encoding: 'hex', text: decoded });
  }
  const hexEscapes = text.match(/(?:\\x[0-9a-fA-F]{2}){6,}/g);
  for (const run of hexEscapes ?? []) {
    const decoded = bytesToText(Buffer.from(run.replace(/\\x/g, ''), 'hex'));
    if (decoded) out.push({ encoding: 'escapes', text: decoded });
  }
  if ((text.match(/%[0-9a-fA-F]{2}/g) ?? []).length >= 4) {
    const bytes: number[] = [];
    const source = Buffer.from(text, 'utf8');
    for (let i = 0; i < source.length; i++) {
      const hex = source[i] === 0x25 ? source.subarray(i + 1, i + 3).toString('latin1') : '';
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(source[i]!);
    }
    const decoded = bytesToText(Uint8Array.from(bytes));
    if (decoded) out.push({ encoding: 'percent', text: decoded });
  }
  if ((text.match(/&#(?:\d{1,7}|x[0-9a-fA-F]{1,6});/g) ?? []).length >= 4) {
    const decoded = text.replace(/&#(\d{1,7}|x[0-9a-fA-F]{1,6});/g, (_m, code: string) => {
      const cp = code.startsWith('x') ? parseInt(code.slice(1), 16) : parseInt(code, 10);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    });
    out.push({ encoding: 'html-entities', text: decoded });
  }
  if ((text.match(/\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}/g) ?? []).length >= 4) {
    const decoded = text.replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})/g, (_m, a?: string, b?: string) => String.fromCodePoint(parseInt(a ?? b!, 16)));
    out.push({ encoding: 'escapes', text: decoded });
  }
  return out;
}

function encodedFindings(text: string, depth = 0): InjectionFinding[] {
  if (depth > 1) return [];
  const plainRules = new Set(overridesIn(text).map((f) => f.rule));
  const out: InjectionFinding[] = [];
  for (const decoded of decodings(text)) {
    const hits = overridesIn(decoded.text).filter((f) => !plainRules.has(f.rule));
    const nested = hits.length ? [] : encodedFindings(decoded.text, depth + 1);
    const first = hits[0] ?? nested[0];
    if (first) out.push({ category: 'encoded_payload', rule: `encoded.${decoded.encoding}:${first.rule}`, excerpt: excerptOf(decoded.text, 0, 80), encoding: decoded.encoding });
  }
  return out;
}

/* Markup that hides text from a human reader while a machine still reads it. */

const HIDING_CSS = /display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*(?:0|[01](?:\.\d+)?px)(?![\d.])|opacity\s*:\s*0(?:\.0+)?(?![\d.])|(?:^|[;\s"'])color\s*:\s*(?:#fff(?:fff)?\b|white\b|transparent\b|rgba\([^)]*,\s*0(?:\.0+)?\s*\))|(?:left|top|right|text-indent)\s*:\s*-\d{3,}|clip\s*:\s*rect\(\s*0|(?:height|width|max-height)\s*:\s*0(?:px)?\s*[;"'][^"']*overflow\s*:\s*hidden/i;
const hasWords = (s: string) => (s.match(/[A-Za-z]{2,}/g) ?? []).length >= 1 || /\p{Script=Han}/u.test(s);
const hasSentence = (s: string) => (s.match(/[A-Za-z]{2,}/g) ?? []).length >= 4 || (s.match(/\p{Script=Han}/gu) ?? []).length >= 4;
const stripTags = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

function markupFindings(text: string): InjectionFinding[] {
  const out: InjectionFinding[] = [];
  const push = (rule: string, excerpt: string) => out.push({ category: 'hidden_markup', rule, excerpt: excerpt.replace(/\s+/g, ' ').slice(0, 120) });
  // Only elements whose attributes could hide them are examined, each up to its first closing
  // tag; a tag name that is never closed is remembered, so a flood of open tags stays linear.
  const unclosed = new Set<string>();
  for (const m of text.matchAll(/<([a-z][a-z0-9]*)\b([^<>]{0,2000})>/gi)) {
    const attributes = m[2]!;
    if (!/style|hidden|color/i.test(attributes)) continue;
    const name = m[1]!.toLowerCase();
    if (unclosed.has(name)) continue;
    const start = m.index! + m[0].length;
    const closing = new RegExp(`</${name}\\s*>`, 'gi');
    closing.lastIndex = start;
    const close = closing.exec(text);
    if (!close) {
      unclosed.add(name);
      continue;
    }
    const element = text.slice(m.index!, close.index + close[0].length);
    const inner = stripTags(text.slice(start, close.index));
    if (!hasWords(inner)) continue;
    const style = /\bstyle\s*=\s*("[^"]*"|'[^']*')/i.exec(attributes)?.[1] ?? '';
    if (HIDING_CSS.test(style)) push('markup.hiding-style', element);
    else if (/\shidden(?=[\s=>/]|$)/i.test(attributes)) push('markup.hidden-attribute', element);
    else if (/\bcolor\s*=\s*["']?(?:#fff(?:fff)?|white|transparent)\b/i.test(attributes)) push('markup.hidden-colour', element);
  }
  for (const m of text.matchAll(/<input\b[^>]*\btype\s*=\s*["']?hidden\b[^>]*>/gi)) {
    const value = /\bvalue\s*=\s*("[^"]*"|'[^']*')/i.exec(m[0])?.[1] ?? '';
    if (hasSentence(value)) push('markup.hidden-input', m[0]);
  }
  for (let open = text.indexOf('<!--'); open !== -1; ) {
    const close = text.indexOf('-->', open + 4);
    if (close === -1) break; // no later comment can close either
    const body = text.slice(open + 4, close);
    if (hasSentence(body)) push('markup.comment', text.slice(open, close + 3));
    open = text.indexOf('<!--', close + 3);
  }
  for (const m of text.matchAll(/^[ \t]*\[(?:\/\/|comment|_|#)\]:\s*(?:#|<>)\s*\(([^)\n]*)\)/gim)) if (hasWords(m[1]!)) push('markup.markdown-comment', m[0]);
  return out;
}

export function checkInjection(text: string): InjectionResult {
  const findings = [...overridesIn(text), ...invisibleFindings(text), ...encodedFindings(text), ...markupFindings(text)];
  const categories = [...new Set(findings.map((f) => f.category))];
  return { flagged: findings.length > 0, blocked: false, categories, findings, checkedCharacters: Array.from(text).length };
}
