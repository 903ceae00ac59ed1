-- Filtro do pandoc para ./hz book: junta os arquivos do livro num HTML só.
--
-- O course/book/render.sh embrulha cada arquivo numa div
--   ::: {#ID .capitulo arquivo="NOME.md"}
-- e este filtro, para cada capítulo, tira a div (deixando no lugar uma
-- âncora vazia com o ID) e:
--   * prefixa todo id com "ID--" (cada capítulo tem o seu "objetivos-de-aprendizagem");
--   * troca links entre capítulos por âncoras da página:
--       NOME.md -> #ID    NOME.md#x -> #ID--x    #x -> #ID_DESTE--x
--   * aponta os links para arquivos do repositório fora do livro (../README.md,
--     ../solutions/01-loop/agent_loop.cpp) para a cópia que o leitor pode abrir:
--     repo-base (metadado; o render.sh põe o caminho relativo do HTML até a raiz
--     do curso, ou o endereço da forja) seguido do caminho a partir da raiz;
--   * faz o mesmo com um `caminho` em código que é um arquivo ou pasta que existe
--     no repositório (repo-root, metadado: a raiz, para conferir) e com o
--     caminho da legenda de cada listagem;
--   * troca o comentário <!-- listing: CAMINHO#REGIAO --> por uma legenda com
--     âncora (#ID--listagem-REGIAO) acima do bloco de código;
--   * dá a cada linha da tabela do glossário uma âncora (#glossario--termo-X) e
--     liga ao glossário o primeiro uso de cada termo (a coluna "No livro") em
--     cada capítulo, fora de títulos, código e links (uma palavra de todo dia,
--     como "volta" ou "uso", só onde ela sozinha está em negrito ou itálico).

local chapter_of = {} -- "01-loop.md" -> "01-loop"
local repo_base = "" -- "../../" ou "https://forja/dono/curso/blob/COMMIT/"
local repo_root = nil -- a raiz do curso no disco, para saber se um caminho existe

-- "livro/../solutions/x.cpp" -> "solutions/x.cpp"; nil se sai da raiz.
local function normalize(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." then
      if #parts == 0 then return nil end
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

local function exists_in_repo(rel)
  if not repo_root or rel == "" then return false end
  local f = io.open(repo_root .. "/" .. rel, "r")
  if f then f:close() return true end
  return false
end

-- O endereço de um arquivo do repositório (caminho a partir da raiz).
local function repo_href(rel, fragment)
  local href = repo_base .. rel
  if fragment and fragment ~= "" then href = href .. "#" .. fragment end
  return href
end

local function has_scheme(target)
  return target:match("^%a[%w+.-]*:") ~= nil
end

local function split_fragment(target)
  local path, fragment = target:match("^([^#]*)#(.*)$")
  if path then return path, fragment end
  return target, nil
end

-- O destino de um link escrito no capítulo `current`; nil se o link sai do livro.
local function rewrite_target(target, current)
  if target == "" or has_scheme(target) then return target end
  local path, fragment = split_fragment(target)
  if path == "" then
    return "#" .. current .. "--" .. (fragment or "")
  end
  local file = path:gsub("^%./", "")
  local id = chapter_of[file]
  if not id then return nil end
  if fragment and fragment ~= "" then return "#" .. id .. "--" .. fragment end
  return "#" .. id
end

-- ids e links dentro de HTML cru (o <a id="react"></a> da bibliografia).
local function rewrite_raw_html(text, current)
  text = text:gsub('(%sid=")([^"]*)(")', function(a, id, b)
    return a .. current .. "--" .. id .. b
  end)
  text = text:gsub('(%shref=")([^"]*)(")', function(a, href, b)
    local new = rewrite_target(href, current)
    return a .. (new or href) .. b
  end)
  return text
end

local function prefix_identifier(el, current)
  if el.identifier and el.identifier ~= "" then
    el.identifier = current .. "--" .. el.identifier
    return el
  end
  return nil
end

-- Quantas vezes cada âncora de listagem já apareceu: o mesmo trecho pode ser
-- mostrado duas vezes (o stub no exercício, a resposta depois), e o mesmo nome
-- de região existe no .hpp e no .cpp.
local listing_ids = {}

local function listing_caption(text, current)
  local spec = text:match("^%s*<!%-%-%s*listing:%s*(%S+)%s*%-%->%s*$")
  if not spec then return nil end
  local path, region = split_fragment(spec)
  local code = pandoc.Code(path)
  local file = normalize(path)
  local content = { pandoc.Str("Listagem:"), pandoc.Space(), code }
  if file and exists_in_repo(file) then
    content[3] = pandoc.Link({ code }, repo_href(file), "", pandoc.Attr("", { "no-repositorio" }))
  end
  local base = current .. "--listagem-" .. spec:gsub("[^%w]+", "-")
  listing_ids[base] = (listing_ids[base] or 0) + 1
  local id = base
  if listing_ids[base] > 1 then id = base .. "-" .. listing_ids[base] end
  if region then
    content[#content + 1] = pandoc.Str(",")
    content[#content + 1] = pandoc.Space()
    content[#content + 1] = pandoc.Str("região")
    content[#content + 1] = pandoc.Space()
    content[#content + 1] = pandoc.Code(region)
  end
  return pandoc.Div({ pandoc.Plain(content) }, pandoc.Attr(id, { "listagem" }))
end

local function chapter_filter(current)
  return {
    Header = function(el) return prefix_identifier(el, current) end,
    Div = function(el) return prefix_identifier(el, current) end,
    Span = function(el) return prefix_identifier(el, current) end,
    CodeBlock = function(el) return prefix_identifier(el, current) end,
    Code = function(el)
      prefix_identifier(el, current)
      -- Um caminho do repositório em código vira link para ele (só se existe:
      -- "solutions/NN-nome/" é uma forma, não um caminho).
      local text = el.text:gsub("/$", "")
      if text:find("/", 1, true) and not text:find("[%s<>*$]") and exists_in_repo(text) then
        return pandoc.Link({ el }, repo_href(text), "", pandoc.Attr("", { "no-repositorio" }))
      end
      return el
    end,
    Image = function(el) return prefix_identifier(el, current) end,
    Link = function(el)
      prefix_identifier(el, current)
      local target = rewrite_target(el.target, current)
      if target then
        el.target = target
        return el
      end
      -- Fora do livro: o arquivo do repositório, a partir da pasta livro/.
      local path, fragment = split_fragment(el.target)
      local file = normalize("livro/" .. path)
      if file then
        el.target = repo_href(file, fragment)
        el.classes:insert("no-repositorio")
        return el
      end
      return pandoc.Span(el.content, pandoc.Attr("", { "fora-do-livro" },
        { { "title", "no repositório: " .. el.target } }))
    end,
    RawInline = function(el)
      if el.format == "html" then
        el.text = rewrite_raw_html(el.text, current)
        return el
      end
    end,
    RawBlock = function(el)
      if el.format ~= "html" then return nil end
      local caption = listing_caption(el.text, current)
      if caption then return caption end
      el.text = rewrite_raw_html(el.text, current)
      return el
    end,
  }
end

-- ------------------------------------------------------------- glossário

local terms_by_first = {} -- primeira palavra -> { {words=..., id=..., everyday=...}, ... }

-- Termos de uma palavra só que o português usa também no sentido de todo dia
-- ("o código em volta do modelo", "erro de uso"): só ganham link onde o livro
-- destaca a palavra sozinha (**janela**, *volta*), que é onde ela é o termo.
local everyday = {}
for w in ([[argumentos aviso cancelamento cenário ciclo cobrada confirmação custo despacho
            diário disparada durável estimado evento expectativa fatia gancho histórico
            intenção isenta janela limiar listagem mensagem observação papel pedido
            precedência registro teto trava travada uso vigia volta]]):gmatch("%S+") do
  everyday[w] = true
end

local function slug(text)
  return (text:lower():gsub("[%s%p]+", "-"):gsub("^%-+", ""):gsub("%-+$", ""))
end

local function words_of(text)
  local words = {}
  for w in text:lower():gmatch("%S+") do words[#words + 1] = w end
  return words
end

-- A tabela do glossário: cada linha ganha a âncora termo-X na primeira célula,
-- e o termo da segunda coluna (sem o que vem entre parênteses; termos que são
-- só código ficam de fora) entra na lista.
local function collect_glossary(blocks)
  local seen = {}
  for _, block in ipairs(blocks) do
    if block.t == "Table" then
      for _, body in ipairs(block.bodies) do
        for _, row in ipairs(body.body) do
          local cells = row.cells
          if #cells >= 2 then
            local has_code = false
            pandoc.walk_block(pandoc.Div(cells[2].contents), {
              Code = function() has_code = true end })
            local term = pandoc.utils.stringify(cells[2].contents)
            term = term:gsub("%s*%b()", ""):gsub("^%s+", ""):gsub("%s+$", "")
            local id = "termo-" .. slug(term)
            if not has_code and #term >= 3 and not seen[id] then
              seen[id] = true
              local first = cells[1].contents[1]
              if first and (first.t == "Plain" or first.t == "Para") then
                table.insert(first.content, 1, pandoc.Span({}, pandoc.Attr(id, { "termo" })))
              end
              local words = words_of(term)
              local list = terms_by_first[words[1]] or {}
              list[#list + 1] = { words = words, id = "glossario--" .. id,
                                  everyday = #words == 1 and everyday[words[1]] or false }
              terms_by_first[words[1]] = list
            end
          end
        end
      end
    end
  end
  for _, list in pairs(terms_by_first) do
    table.sort(list, function(a, b) return #a.words > #b.words end)
  end
end

-- A palavra de um Str, sem a pontuação em volta: prefixo, palavra, sufixo.
local function split_word(text)
  local prefix, word, suffix = text:match("^([%(%[\"'*]*)(.-)([%.,;:!%?%)%]\"'*]*)$")
  return prefix or "", (word or text):lower(), suffix or ""
end

local function same_word(word, wanted, last)
  if word == wanted then return true end
  -- O plural do último termo ("ferramentas" para "ferramenta").
  return last and word == wanted .. "s"
end

-- O termo que começa em inlines[i], se algum: devolve o termo e o índice da
-- última palavra.
local function match_term(inlines, i)
  local el = inlines[i]
  local _, first = split_word(el.text)
  local candidates = terms_by_first[first] or terms_by_first[first:gsub("s$", "")]
  if not candidates then return nil end
  for _, term in ipairs(candidates) do
    local j, ok = i, true
    for k, wanted in ipairs(term.words) do
      local cur = inlines[j]
      if not cur or cur.t ~= "Str" then ok = false break end
      local prefix, word, suffix = split_word(cur.text)
      if (k > 1 and prefix ~= "") or (k < #term.words and suffix ~= "") or
          not same_word(word, wanted, k == #term.words) then
        ok = false
        break
      end
      if k < #term.words then
        local gap = inlines[j + 1]
        if not gap or (gap.t ~= "Space" and gap.t ~= "SoftBreak") then ok = false break end
        j = j + 2
      end
    end
    if ok then return term, j end
  end
  return nil
end

local link_blocks

local function link_inlines(inlines, used, emphasized)
  local out = pandoc.List()
  local i = 1
  while i <= #inlines do
    local el = inlines[i]
    if el.t == "Str" then
      local term, last = match_term(inlines, i)
      if term and not used[term.id] and (emphasized or not term.everyday) then
        used[term.id] = true
        local prefix = split_word(el.text)
        local _, _, suffix = split_word(inlines[last].text)
        local inner = pandoc.List()
        for k = i, last do inner:insert(inlines[k]:clone()) end
        inner[1].text = inner[1].text:sub(#prefix + 1)
        inner[#inner].text = inner[#inner].text:sub(1, #inner[#inner].text - #suffix)
        if prefix ~= "" then out:insert(pandoc.Str(prefix)) end
        out:insert(pandoc.Link(inner, "#" .. term.id, "", pandoc.Attr("", { "glossario" })))
        if suffix ~= "" then out:insert(pandoc.Str(suffix)) end
        i = last + 1
      else
        out:insert(el)
        i = i + 1
      end
    else
      if el.t == "Emph" or el.t == "Strong" then
        -- Destacado é o termo sozinho (**janela**), não uma frase em negrito.
        local alone = #el.content == 1 and el.content[1].t == "Str"
        el.content = link_inlines(el.content, used, alone)
      elseif el.t == "Span" or el.t == "Quoted" then
        el.content = link_inlines(el.content, used, emphasized)
      end
      out:insert(el)
      i = i + 1
    end
  end
  return out
end

link_blocks = function(blocks, used)
  for _, block in ipairs(blocks) do
    local t = block.t
    if t == "Para" or t == "Plain" then
      block.content = link_inlines(block.content, used)
    elseif t == "BulletList" or t == "OrderedList" then
      for _, item in ipairs(block.content) do link_blocks(item, used) end
    elseif t == "BlockQuote" or (t == "Div" and not block.classes:includes("listagem")) then
      link_blocks(block.content, used)
    elseif t == "Table" then
      for _, body in ipairs(block.bodies) do
        for _, row in ipairs(body.body) do
          for _, cell in ipairs(row.cells) do link_blocks(cell.contents, used) end
        end
      end
    end
  end
end

local function walk(block, filter)
  if block.walk then return block:walk(filter) end
  return pandoc.walk_block(block, filter)
end

function Pandoc(doc)
  if doc.meta["repo-base"] then repo_base = pandoc.utils.stringify(doc.meta["repo-base"]) end
  if doc.meta["repo-root"] then repo_root = pandoc.utils.stringify(doc.meta["repo-root"]) end
  for _, block in ipairs(doc.blocks) do
    if block.t == "Div" and block.classes:includes("capitulo") then
      chapter_of[block.attributes["arquivo"]] = block.identifier
      if block.identifier == "glossario" then collect_glossary(block.content) end
    end
  end
  local blocks = {}
  for _, block in ipairs(doc.blocks) do
    if block.t == "Div" and block.classes:includes("capitulo") then
      -- O pandoc 2.x só põe no sumário os títulos fora de divs: o capítulo
      -- volta ao nível de cima, marcado por uma âncora vazia com o id dele.
      local current = block.identifier
      local inner = walk(pandoc.Div(block.content), chapter_filter(current))
      -- O primeiro uso de cada termo do glossário, em cada capítulo.
      if current ~= "glossario" and current ~= "bibliografia" then
        link_blocks(inner.content, {})
      end
      blocks[#blocks + 1] = pandoc.Div({}, pandoc.Attr(current, { "capitulo" }))
      for _, b in ipairs(inner.content) do blocks[#blocks + 1] = b end
      blocks[#blocks + 1] = pandoc.Div(
        { pandoc.Plain({ pandoc.Link({ pandoc.Str("↑ Sumário") }, "#TOC") }) },
        pandoc.Attr("", { "voltar" }))
    else
      blocks[#blocks + 1] = block
    end
  end
  doc.blocks = blocks
  return doc
end
