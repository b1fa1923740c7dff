//! The two drivers of the node steps in `node`: the recursive one makes each child search a
//! function call; the iterative one (Knuth and Moore's transformation of alpha-beta) runs
//! every node of the tree below a root move in one loop over an explicit stack of nodes.
//! Both keep the nodes in one array allocated per thread search, so no node is built anew.

use crate::board::Position;
use crate::search::SearchDriver;
use crate::search::stack::FRAME_COUNT;

use super::ThreadSearch;
use super::node::{ChildSearch, Node, Step};

/// Nodes the drivers allocate at the start of a thread's search. The tree is at most
/// `MAX_PLY` plies deep, and the searches of a node's own position (null-move verification,
/// IID, singular search) each nest one more node at the same ply, each shallower than the
/// last, which keeps a path well below this; should one ever need more, the drivers add
/// nodes.
pub(super) const NODE_STACK_SIZE: usize = 3 * FRAME_COUNT;

/// Where a node of the explicit stack finds its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PositionSource {
    /// The position the driver was called with.
    Start,
    /// The `child` of the node at this index.
    ChildOf(usize),
}

/// One entry of the drivers' stack of nodes (the recursive driver ignores the source).
pub(super) struct StackedNode {
    node: Node,
    source: PositionSource,
}

impl Default for StackedNode {
    fn default() -> Self {
        StackedNode {
            node: Node::default(),
            source: PositionSource::Start,
        }
    }
}

/// The node at `index` and the position it searches.
fn node_at<'s>(
    stack: &'s mut [StackedNode],
    index: usize,
    start: &'s Position,
) -> (&'s mut Node, &'s Position) {
    let (below, rest) = stack.split_at_mut(index);
    let entry = &mut rest[0];
    let pos = match entry.source {
        PositionSource::Start => start,
        PositionSource::ChildOf(parent) => &below[parent].node.child,
    };
    (&mut entry.node, pos)
}

impl ThreadSearch<'_> {
    /// The value of `search` at `pos`, by the driver the features choose. Both keep their
    /// nodes in `node_stack`, allocated once per thread search.
    pub(super) fn search_child(&mut self, pos: &Position, search: ChildSearch) -> i32 {
        let mut stack = std::mem::take(&mut self.node_stack);
        if stack.is_empty() {
            stack.resize_with(NODE_STACK_SIZE, StackedNode::default);
        }
        let value = match self.features.driver {
            SearchDriver::Recursive => self.search_recursive(&mut stack, pos, search),
            SearchDriver::Iterative => self.search_iterative(&mut stack, pos, search),
        };
        self.node_stack = stack;
        value
    }

    /// A child search is a call; the node lives in the first entry of `stack`, its
    /// descendants in the rest.
    fn search_recursive(
        &mut self,
        stack: &mut [StackedNode],
        pos: &Position,
        search: ChildSearch,
    ) -> i32 {
        let Some((entry, rest)) = stack.split_first_mut() else {
            // Deeper than the stack: one more node of its own.
            let mut spare = [StackedNode::default()];
            return self.search_recursive(&mut spare, pos, search);
        };
        let node = &mut entry.node;
        node.restart(search);
        let mut step = self.enter(node, pos);
        loop {
            match step {
                Step::Value(value) => return value,
                Step::Child(child) => {
                    let value = if child.kind.same_position() {
                        self.search_recursive(rest, pos, child)
                    } else {
                        self.search_recursive(rest, &node.child, child)
                    };
                    step = self.resume(node, pos, value);
                }
            }
        }
    }

    /// One loop: a child search pushes a node, a node's value pops it and resumes its parent
    /// where it left off (the parent's `Node` remembers the kind of search it asked for).
    fn search_iterative(
        &mut self,
        stack: &mut Vec<StackedNode>,
        start: &Position,
        search: ChildSearch,
    ) -> i32 {
        let mut top = 0;
        stack[0].source = PositionSource::Start;
        stack[0].node.restart(search);
        let (node, pos) = node_at(stack, 0, start);
        let mut step = self.enter(node, pos);
        loop {
            match step {
                Step::Value(value) => {
                    if top == 0 {
                        return value;
                    }
                    top -= 1;
                    let (node, pos) = node_at(stack, top, start);
                    step = self.resume(node, pos, value);
                }
                Step::Child(child) => {
                    let source = if child.kind.same_position() {
                        stack[top].source
                    } else {
                        PositionSource::ChildOf(top)
                    };
                    top += 1;
                    if top == stack.len() {
                        stack.push(StackedNode::default());
                    }
                    let entry = &mut stack[top];
                    entry.source = source;
                    entry.node.restart(child);
                    let (node, pos) = node_at(stack, top, start);
                    step = self.enter(node, pos);
                }
            }
        }
    }
}
