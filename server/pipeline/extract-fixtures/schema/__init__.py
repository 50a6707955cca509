from typing_extensions import override

from comfy_api.latest import ComfyExtension, io

from .more import MoreNodes


class ImageStrength(io.ComfyNode):
    @classmethod
    def define_schema(cls) -> io.Schema:
        return io.Schema(
            node_id="ImageStrength",
            display_name="Image Strength",
            category="image/adjust",
            description="Scales an image.",
            inputs=[
                io.Image.Input("image"),
                io.Float.Input("strength", default=1.0, min=0, max=2, display_mode=io.NumberDisplay.slider),
                io.Combo.Input("mode", options=["multiply", "add"]),
                io.Mask.Input("mask", optional=True, tooltip="Where to apply"),
            ],
            outputs=[io.Image.Output(display_name="out"), io.Mask.Output(is_output_list=True)],
            is_experimental=True,
        )

    @classmethod
    def execute(cls, image, strength, mode, mask=None) -> io.NodeOutput:
        return io.NodeOutput(image * strength, mask)


class DemoExtension(ComfyExtension):
    @override
    async def get_node_list(self) -> list[type[io.ComfyNode]]:
        return [ImageStrength, *MoreNodes]


async def comfy_entrypoint() -> DemoExtension:
    return DemoExtension()
