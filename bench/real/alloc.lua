-- An allocation-heavy Lua workload for make bench-real.
--
-- Lua's allocator is the C library's realloc/free (lauxlib's l_alloc),
-- so every table, string and closure below goes through the malloc
-- being measured. Binary trees (Lua's classic allocation benchmark),
-- string building and table churn, in a deterministic pattern; prints
-- a digest. The argument scales the work (1: about a second here).

local scale = tonumber(arg[1]) or 1

local function bottom_up(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottom_up(depth), bottom_up(depth) }
end

local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end

local function trees(max_depth)
  local digest = 0
  local long_lived = bottom_up(max_depth)
  for depth = 4, max_depth, 2 do
    local iters = 1 << (max_depth - depth + 4)
    for _ = 1, iters do digest = digest + check(bottom_up(depth)) end
  end
  return digest + check(long_lived)
end

local function strings(rounds)
  local digest, seed = 0, 12345
  for r = 1, rounds do
    local parts = {}
    for i = 1, 200 do
      seed = (seed * 1103515245 + 12345) % 2147483648
      parts[#parts + 1] = string.format("%d:%s", i, string.rep("x", seed % 40))
    end
    local s = table.concat(parts, ",")
    digest = (digest + #s + r) % 1000000007
  end
  return digest
end

local function churn(rounds, size)
  local digest, seed = 0, 67890
  local t = {}
  for r = 1, rounds do
    for i = 1, size do
      seed = (seed * 1103515245 + 12345) % 2147483648
      local k = "k" .. (seed % (size * 2))
      if t[k] then
        digest = digest + #t[k].v
        t[k] = nil
      else
        t[k] = { v = { seed % 7, seed % 11, r }, n = i }
      end
    end
  end
  for _, v in pairs(t) do digest = digest + v.n end
  return digest
end

local depth = scale >= 1 and 14 or 10
print(trees(depth), strings(math.floor(3000 * scale)),
      churn(math.floor(60 * scale), 5000))
